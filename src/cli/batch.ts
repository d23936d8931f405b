/**
 * Runs a batch of files, one transaction per file, through the transaction runner (batch/file-processor.ts).
 *
 * MUST give every file its own transaction (uuid v4 transaction_id) so one file's failure never touches another;
 * MUST turn every failure (unreadable file, failed run) into a `failure` outcome with a reason instead of
 * throwing; MUST run at most `concurrency` files at once, or as many as `lanes` asks for once it does (lanes are
 * added, never taken away; all of them share one OCR engine pool and the pdf.js workers).
 */
import path from "node:path";
import { DocprocError, wrapStageError } from "../core/errors";
import type { Page, ProgressFn } from "../core/model";
import type { ProjectSettings } from "../core/project";
import type { FileRun } from "../batch/file-processor";
import type { BatchProgress } from "./progress";
import { reviewSummaryOf, type FoundDocument } from "./review-summary";
import { pushAll } from "../core/arrays";

export interface BatchFileOutcome {
  file: string;
  transaction_id: string;
  /**
   * success: everything done; review: done, but fields need a person, validation warns or a page could not be read;
   * partial: results written but something (an export) failed; failure: nothing.
   */
  status: "success" | "review" | "partial" | "failure";
  /** Pages processed (page_limit may cut a file short). */
  pages: number;
  /** Pages in the file, processed or not. */
  page_count: number;
  /** How page text was obtained: "text layer", "OCR", "mixed", "none" or "-" when nothing was read. */
  text_source: string;
  documents: number;
  seconds: number;
  /** The `<transaction_id>_data.json` written, when there is one. */
  results_file: string | null;
  /** Every export file written, as paths under the output folder. */
  exports: string[];
  warnings: string[];
  errors: Array<{ stage: string; code: string; message: string }>;
  /** Per document: type, key fields, fields needing review (src/cli/review-summary.ts). */
  found: FoundDocument[];
  needs_review: number;
  validation: "success" | "warning" | "error" | null;
  /** Pages that could not be read (they stand in as empty pages): the file is `review`, never `success`. */
  unreadable_pages: UnreadablePage[];
}

export interface UnreadablePage {
  /** Page number in the transaction. */
  page: number;
  /** Page number inside its file. */
  file_page: number;
  reason: string;
}

export interface BatchContext {
  files: string[];
  outDir: string;
  concurrency: number;
  progress: BatchProgress;
  /** The project the files run under (the summary names its key fields and review thresholds). */
  project: ProjectSettings;
  /**
   * Asked after each file with the outcomes so far (in input order, finished ones only): how many files should be
   * in flight from now on. Lanes are added up to that number, never taken away; below `concurrency` it changes
   * nothing. `docproc process` sizes them by what the files turned out to need (process-run.ts, lanesFor).
   */
  lanes?(finished: BatchFileOutcome[]): number;
  /** Runs one file as transaction `transactionId`; the caller owns project, OCR engine, sink and ledger. */
  run(transactionId: string, file: string, onProgress: ProgressFn): Promise<FileRun & { transaction_id?: string }>;
}

export async function runBatch(batch: BatchContext): Promise<BatchFileOutcome[]> {
  const outcomes: BatchFileOutcome[] = new Array(batch.files.length);
  let next = 0;
  const running: Array<Promise<void>> = [];
  const worker = async () => {
    while (next < batch.files.length) {
      const i = next++;
      outcomes[i] = await runOne(batch, batch.files[i]!);
      const wanted = batch.lanes && next < batch.files.length ? batch.lanes(outcomes.filter(Boolean)) : 0;
      while (running.length < wanted && next < batch.files.length) running.push(worker());
    }
  };
  const lanes = Math.max(1, Math.min(batch.concurrency, batch.files.length));
  pushAll(running, Array.from({ length: lanes }, worker));
  for (let k = 0; k < running.length; k++) await running[k]; // lanes added meanwhile are awaited too
  return outcomes;
}

async function runOne(batch: BatchContext, file: string): Promise<BatchFileOutcome> {
  const transactionId = crypto.randomUUID();
  const started = performance.now();
  const outcome: BatchFileOutcome = {
    file,
    transaction_id: transactionId,
    status: "failure",
    pages: 0,
    page_count: 0,
    text_source: "-",
    documents: 0,
    seconds: 0,
    results_file: null,
    exports: [],
    warnings: [],
    errors: [],
    found: [],
    needs_review: 0,
    validation: null,
    unreadable_pages: [],
  };
  batch.progress.start(transactionId, path.basename(file));
  try {
    const run = await batch.run(transactionId, file, (step, done, total) =>
      batch.progress.step(transactionId, step, done, total),
    );
    fillFromRun(outcome, run, batch.outDir);
    const review = reviewSummaryOf(run.outcome.results, batch.project);
    Object.assign(outcome, review);
    const flagged = review.needs_review > 0 || review.validation !== "success" || outcome.unreadable_pages.length > 0;
    if (outcome.status === "success" && flagged) outcome.status = "review";
  } catch (err) {
    const e = err instanceof DocprocError ? err : wrapStageError("pipeline", err);
    outcome.errors.push({ stage: e.stage ?? "pipeline", code: e.code, message: e.message });
  } finally {
    outcome.seconds = (performance.now() - started) / 1000;
    batch.progress.finish(transactionId);
  }
  return outcome;
}

function fillFromRun(outcome: BatchFileOutcome, run: FileRun & { transaction_id?: string }, outDir: string): void {
  const result = run.outcome;
  if (run.transaction_id) outcome.transaction_id = run.transaction_id;
  outcome.status = run.failed ? "failure" : result.status === "success" ? "success" : "partial";
  outcome.pages = result.pages.length;
  outcome.page_count = result.files.reduce((n, f) => n + f.page_count, 0);
  outcome.text_source = describeTextSource(result.pages);
  outcome.documents = result.results.documents.length;
  outcome.warnings = result.warnings;
  outcome.unreadable_pages = result.pages
    .filter((p) => p.unreadable !== undefined)
    .map((p) => ({ page: p.page_number, file_page: p.source_file_page_number, reason: p.unreadable! }));
  outcome.errors = result.errors.map(({ stage, code, message }) => ({ stage, code, message }));
  for (const entry of Object.values(result.manifest.profiles)) {
    for (const f of entry.files) outcome.exports.push(path.join(outDir, f.filename));
  }
  const dataFile = `${result.results.transaction_id}_data.json`;
  // The processor knows the results file's name (`<stem>.json` with --name-by source); same path form as exports.
  const resultsPath = run.results_path;
  outcome.results_file =
    outcome.exports.find((p) => (resultsPath ? path.resolve(p) === resultsPath : path.basename(p) === dataFile)) ??
    null;
}

export function describeTextSource(pages: Page[]): string {
  const kinds = new Set(pages.map((p) => p.text_source));
  if (kinds.size === 0) return "-";
  if (kinds.size > 1) return "mixed";
  const only = [...kinds][0]!;
  return only === "text_layer" ? "text layer" : only === "ocr" ? "OCR" : only.replace("_", " ");
}
