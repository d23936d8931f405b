/**
 * No file over 300 lines and no function over 80 lines in src/ (STYLE.md). Offenders from before the rule are
 * recorded in size-allowlist.json with their size; that list may only shrink: an entry may be removed or lowered
 * when its file or function is split, never added or raised. A recorded entry that no longer offends fails too,
 * so the list is cleaned as the code gets better.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";
import { functionSizes, lineCount, MAX_FILE_LINES, MAX_FUNCTION_LINES } from "./size-scan";

interface Sizes {
  files: Record<string, number>;
  functions: Record<string, number>;
}

const ALLOWLIST: Sizes = JSON.parse(readFileSync(path.join(import.meta.dir, "size-allowlist.json"), "utf8"));

/** Today's offenders, by path relative to src/ (`core/x.ts`, `core/x.ts:outer.inner`). */
function offenders(): Sizes {
  const found: Sizes = { files: {}, functions: {} };
  for (const file of sourceFiles(SRC).sort()) {
    const rel = path.relative(SRC, file);
    const text = readFileSync(file, "utf8");
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES) found.files[rel] = lines;
    for (const fn of functionSizes(rel, text)) {
      if (fn.lines > MAX_FUNCTION_LINES) found.functions[`${rel}:${fn.name}`] = fn.lines;
    }
  }
  return found;
}

/** What breaks the list: an offender not on it, one grown past its entry, an entry that no longer offends. */
export function sizeProblems(now: Sizes, allowed: Sizes): string[] {
  const problems: string[] = [];
  for (const kind of ["files", "functions"] as const) {
    const limit = kind === "files" ? MAX_FILE_LINES : MAX_FUNCTION_LINES;
    for (const [name, lines] of Object.entries(now[kind])) {
      const was = allowed[kind][name];
      if (was === undefined) problems.push(`${name}: ${lines} lines (limit ${limit}); split it`);
      else if (lines > was) problems.push(`${name}: ${lines} lines, grown from ${was} (limit ${limit}); split it`);
    }
    for (const [name, was] of Object.entries(allowed[kind])) {
      if (now[kind][name] === undefined) problems.push(`${name}: within ${limit} lines now; remove it from the list`);
      else if (now[kind][name]! < was) problems.push(`${name}: ${now[kind][name]} lines now; lower its entry`);
    }
  }
  return problems;
}

describe("sizes", () => {
  test("the scan measures files and named, nested and anonymous functions", () => {
    const text = [
      "export function outer(a: number) {",
      "  const inner = (b: number) => {",
      "    return b;",
      "  };",
      "  return [1].map(function (x) {",
      "    return inner(x);",
      "  });",
      "}",
      "class Pool { start() { return 1; } }",
      "",
    ].join("\n");
    expect(lineCount(text)).toBe(9);
    expect(functionSizes("x.ts", text)).toEqual([
      { name: "outer", lines: 8 },
      { name: "outer.inner", lines: 3 },
      { name: "outer.[1].map(…)", lines: 3 },
      { name: "Pool.start", lines: 1 },
    ]);
  });

  test("the list may only shrink: new, grown and stale entries fail", () => {
    const allowed: Sizes = { files: { "a.ts": 320 }, functions: { "a.ts:f": 90 } };
    expect(sizeProblems({ files: { "a.ts": 320 }, functions: { "a.ts:f": 90 } }, allowed)).toEqual([]);
    expect(sizeProblems({ files: { "a.ts": 321, "b.ts": 301 }, functions: {} }, allowed)).toEqual([
      "a.ts: 321 lines, grown from 320 (limit 300); split it",
      "b.ts: 301 lines (limit 300); split it",
      "a.ts:f: within 80 lines now; remove it from the list",
    ]);
    expect(sizeProblems({ files: { "a.ts": 310 }, functions: { "a.ts:f": 90 } }, allowed)).toEqual([
      "a.ts: 310 lines now; lower its entry",
    ]);
  });

  test(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} lines in src/ beyond the list`, () => {
    const now = offenders();
    expect(sizeProblems(now, ALLOWLIST)).toEqual([]);
  }, 30_000); // parsing every file of src/ takes a few seconds on a busy machine
});
