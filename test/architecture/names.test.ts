/**
 * One name, one meaning (issue 36): no two files of src/ export the same name, so a newcomer who greps for
 * `reviewStage` or `notifyStage` lands on the one thing so named. Names exported twice before the rule are listed
 * below with why; the list may only shrink (a new name shared by two files fails, and so does a listed name that is
 * no longer shared, so the list is cleaned as names are fixed). And a name that says Stage (`splitStage`) is one.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

const SHARED: Record<string, string> = {
  // The same meaning on two floors: a service or auth wrapper over the storage function of that name.
  createProject: "same meaning: server service over storage",
  listProjects: "same meaning: server service over storage",
  updateProject: "same meaning: server service over storage",
  createTransaction: "same meaning: server service over storage",
  editDistance: "same meaning: extract's is bounded, suggest's is not",
  meanConfidence: "same meaning: of words (convert, OCR tsv)",
};

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm;

/** Exported name → the files (relative to src/) that declare it; a name with overloads counts its file once. */
export function exportedNames(files: Array<{ file: string; text: string }>): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const { file, text } of files) {
    for (const m of text.matchAll(DECLARATION)) {
      const where = byName.get(m[1]!) ?? [];
      if (!where.includes(file)) where.push(file);
      byName.set(m[1]!, where);
    }
  }
  return byName;
}

/** `splitStage`, `noReviewStage`, …: a stage's name followed by `Stage`. */
const STAGE_NAME =
  /^export\s+(?:async\s+)?(?:const|let|function)\s+(\w*(?:convert|ocr|split|classify|extract|validate|review|export|notify)Stage)\b(.*)$/gim;

/** Exports named after a stage (`exportStage`) that are not declared as a runner `Stage`: what the name promises. */
export function falseStages(files: Array<{ file: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    for (const m of text.matchAll(STAGE_NAME)) if (!/^\s*:\s*Stage\s*=/.test(m[2]!)) found.push(`${file}: ${m[1]}`);
  }
  return found;
}

export function namingProblems(byName: Map<string, string[]>, shared: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, files] of [...byName].sort()) {
    if (files.length > 1 && !(name in shared)) problems.push(`${name} is exported by ${files.join(", ")}: rename one`);
  }
  for (const name of Object.keys(shared)) {
    if ((byName.get(name)?.length ?? 0) < 2) problems.push(`${name} is exported once now: remove it from the list`);
  }
  return problems;
}

describe("names", () => {
  test("the check finds a planted shared name and a stale list entry, and counts overloads once", () => {
    const byName = exportedNames([
      { file: "a.ts", text: "export function f(x: string): string;\nexport function f(x: unknown) {}\n" },
      { file: "b.ts", text: "export const g = 1;\nexport interface H {}\n" },
      { file: "c.ts", text: "export async function g() {}\n" },
    ]);
    expect(byName.get("f")).toEqual(["a.ts"]);
    expect(namingProblems(byName, { f: "planted" })).toEqual([
      "g is exported by b.ts, c.ts: rename one",
      "f is exported once now: remove it from the list",
    ]);
  });

  test("an export named after a stage is a Stage: planted plans and wrappers are found", () => {
    const planted = [
      { file: "a.ts", text: "export const splitStage: Stage = async (state, ctx) => {};\n" },
      { file: "b.ts", text: "export function notifyStage(input: Input): Plan {}\n" },
      { file: "c.ts", text: "export async function exportStage(ctx: Ctx) {}\nexport function timeStage() {}\n" },
    ];
    expect(falseStages(planted)).toEqual(["b.ts: notifyStage", "c.ts: exportStage"]);
    const files = sourceFiles(SRC).map((f) => ({ file: path.relative(SRC, f), text: readFileSync(f, "utf8") }));
    expect(falseStages(files)).toEqual([]);
  });

  test("no two files of src/ export the same name beyond the list", () => {
    const files = sourceFiles(SRC).map((f) => ({ file: path.relative(SRC, f), text: readFileSync(f, "utf8") }));
    const byName = exportedNames(files);
    expect(byName.get("reviewStage")).toEqual(["core/stages/review/stage.ts"]);
    expect(namingProblems(byName, SHARED)).toEqual([]);
  });
});
