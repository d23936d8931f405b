/**
 * The repository stands alone: a clone with no `shared/` folder beside it must install and pass its tests. Material
 * that reaches the project through that sibling folder is copied into `fixtures/corpora/` (licences and SOURCE
 * notes kept); nothing in code, tests, benchmarks or scripts may read the sibling folder. `.ci/run` also runs the suite from a
 * clone in a folder with nothing beside it, so a reference this scan misses still fails there.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");
const SCANNED = ["src", "test", "bench", "scripts", "bin", ".ci", "package.json"];
// A path that climbs out of the checkout into a sibling `shared/`, or names the workplace's folder outright.
const OUTSIDE = /(?:\.\.\/)+shared\/|\/work\/shared/;

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full).flatMap((name) => (name === "node_modules" ? [] : files(path.join(entry, name))));
}

describe("the repository stands alone", () => {
  test("no code, test, benchmark or script reads the sibling shared folder", () => {
    const self = path.relative(ROOT, import.meta.path);
    const offenders = SCANNED.flatMap(files)
      .filter((f) => path.relative(ROOT, f) !== self && /\.(ts|js|mjs|json|sh)$|^run$/.test(path.basename(f)))
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .map((line, i) => (OUTSIDE.test(line) ? `${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}` : ""))
          .filter(Boolean),
      );
    expect(offenders).toEqual([]);
  });

  test("every corpus folder carries its SOURCE note and the manifest's files exist", () => {
    const corpora = path.join(ROOT, "fixtures/corpora");
    for (const name of readdirSync(corpora)) {
      if (!statSync(path.join(corpora, name)).isDirectory()) continue;
      const notes = files(path.join("fixtures/corpora", name)).filter((f) => /SOURCE\.md$/.test(f));
      expect(notes.length, `${name} has no SOURCE.md`).toBeGreaterThan(0);
    }
    const manifest = readFileSync(path.join(corpora, "manifest.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(manifest.length).toBeGreaterThan(50);
    const missing = manifest.flatMap((m: { doc: string; gt?: string | string[] }) =>
      [m.doc, m.gt ?? []].flat().filter((v) => v && !existsSync(path.join(corpora, v))),
    );
    expect(missing).toEqual([]);
  });
});
