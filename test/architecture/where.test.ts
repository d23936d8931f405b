/**
 * docs/ARCHITECTURE.md is checked against the tree: every path of its "Where things live" table exists, the table
 * answers the questions a newcomer asked first (issue 36), and its "Floors of core" names every floor node that
 * imports.test.ts enforces.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CORE_FLOORS } from "./core-floors";

const ROOT = path.resolve(import.meta.dir, "../..");
const DOC = readFileSync(path.join(ROOT, "docs/ARCHITECTURE.md"), "utf8");

/** The text of a `## title` section, up to the next `## `. */
function section(title: string): string {
  const start = DOC.indexOf(`## ${title}`);
  if (start < 0) return "";
  const end = DOC.indexOf("\n## ", start + 3);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** Table rows of a section: [what, paths]. */
function rows(text: string): Array<[string, string[]]> {
  return text
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| looking for") && !l.startsWith("|---"))
    .map((l) => {
      const [what, where] = l.slice(2, -2).split(" | ");
      return [what!, [...where!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)];
    });
}

describe("docs/ARCHITECTURE.md", () => {
  test("every path of the where-things-live table exists", () => {
    const table = rows(section("Where things live"));
    expect(table.length).toBeGreaterThan(25);
    const missing = table.flatMap(([what, paths]) =>
      paths.filter((p) => !existsSync(path.join(ROOT, p))).map((p) => `${what}: ${p}`),
    );
    expect(missing).toEqual([]);
    for (const [what, paths] of table) expect(paths.length, what).toBeGreaterThan(0);
  });

  test("the table answers where the rate limit, review routes, split stage, engines, migrations, errors, run outcome and webhook signing live", () => {
    const text = section("Where things live");
    for (const topic of [
      "rate limits",
      "review HTTP routes",
      "split stage",
      "OCR engine",
      "PDF engine",
      "migrations",
      "error codes",
      "RunOutcome",
      "signing",
    ])
      expect(text, topic).toContain(topic);
  });

  test("the floors of core name every node the architecture test places", () => {
    const text = section("Floors of core (src/core)");
    for (const node of CORE_FLOORS.flat()) expect(text, node).toMatch(new RegExp(`(^|[\\s·])${node}([\\s·(]|$)`, "m"));
  });
});
