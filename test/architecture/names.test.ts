/**
 * One name, one meaning (issue 36): no two files of src/ export the same name, so a newcomer who greps for
 * `reviewStage` or `notifyStage` lands on the one thing so named. Names exported twice before the rule are listed
 * below with why; the list may only shrink (a new name shared by two files fails, and so does a listed name that is
 * no longer shared, so the list is cleaned as names are fixed).
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
  listClients: "same meaning: auth over storage",
  updateClient: "same meaning: auth over storage",
  deleteClient: "same meaning: auth over storage",
  sha256Hex: "same meaning: one hash helper written twice (auth, storage)",
  editDistance: "same meaning: extract's is bounded, suggest's is not",
  meanConfidence: "same meaning: of words (convert, OCR tsv)",
  storedSources: "same meaning: review finish and the queue job load stored sources",
  continueAfterReview: "same meaning: the service calls the queue's",
  // Different meanings, waiting for a rename in folders other changes are editing now.
  GreyImage: "the OCR engine's copy goes once engines/ocr/raster.ts moves to core/imaging",
  resumeTransaction: "core continues a run; queue/submit enqueues a resume",
  validateDocument: "the validate stage's rules vs an e-invoice's EN 16931 validation",
  Finding: "e-invoice mandatory terms vs validation engine",
  Syntax: "e-invoice model vs validator types",
  RunResult: "queue pipeline runner vs e-invoice validator",
  RunOptions: "the core runner's vs the mail runner's",
  ValidateOptions: "docproc validate vs the e-invoice validator",
  readValue: "an e-invoice path's value vs extract's value reader",
  FileOutcome: "CLI batch vs docproc validate vs eval scoring",
  redact: "a PostgreSQL URL's password vs a webhook URL",
  renderSummary: "docproc process's summary vs the capture terminal",
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

  test("no two files of src/ export the same name beyond the list", () => {
    const files = sourceFiles(SRC).map((f) => ({ file: path.relative(SRC, f), text: readFileSync(f, "utf8") }));
    const byName = exportedNames(files);
    expect(byName.get("reviewStage")).toEqual(["core/review/stage.ts"]);
    expect(namingProblems(byName, SHARED)).toEqual([]);
  });
});
