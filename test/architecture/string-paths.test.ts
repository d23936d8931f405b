/**
 * Module paths written as strings resolve: `require("./x")` (kept literal so the compiled binary bundles it),
 * `import("./x")` and `new URL("./x.ts", import.meta.url)` (worker entry points). The type checker follows
 * `import … from` and `typeof import(…)`, not these, so a file move that forgets one passes the typecheck and fails
 * at run time (a move of core/stages/validate once left `require("../einvoice/readiness")` pointing nowhere).
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

const STRING_PATH =
  /(?:\brequire|\bimport)\(\s*["'](\.{1,2}\/[^"']+)["']|new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url/g;

function unresolvedStringPaths(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(STRING_PATH)) {
      const target = path.resolve(path.dirname(file), (m[1] ?? m[2])!);
      const candidates = [target, `${target}.ts`, path.join(target, "index.ts"), target.replace(/\.js$/, ".ts")];
      if (!candidates.some((c) => existsSync(c))) found.push(`${path.relative(SRC, file)}: ${m[1] ?? m[2]}`);
    }
  }
  return found;
}

test("every require()/import()/new URL() path written as a string in src/ resolves", () => {
  expect(unresolvedStringPaths(sourceFiles(SRC))).toEqual([]);
});

test("the scan finds a path that points nowhere and accepts one that resolves", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "string-paths-"));
  writeFileSync(path.join(dir, "there.ts"), "export const x = 1;\n");
  const file = path.join(dir, "a.ts");
  writeFileSync(file, 'const a = require("./there");\nconst b = require("../nowhere/module");\n');
  expect(unresolvedStringPaths([file]).map((f) => f.split(": ")[1])).toEqual(["../nowhere/module"]);
});
