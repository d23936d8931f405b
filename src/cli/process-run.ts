/**
 * The work behind `docproc process`: collect inputs, load the project, share one OCR engine, run the batch, print
 * the summary. Returns the exit code (0 all succeeded, 1 any file failed, 2 every file found was skipped); usage and configuration problems throw
 * `DocprocError` (invalid_input → 2, invalid_settings → 4) before any file is touched.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { cpuCount } from "../core/cores";
import { prewarmPdfWorkers } from "../core/engines/pdf/pdf-client";
import { readSourceFile } from "../core/engines/pdf/pdf-bytes";
import { SHARE_MAX_PAGES } from "../core/engines/pdf/pdf-host";
import type { ProgressFn } from "../core/model";
import { collectInputs } from "../batch/inputs";
import type { BatchFileOutcome } from "./batch";
import { createProgress, silentProgress, stepLines, type BatchProgress } from "./progress";
import { buildSummary, renderFailures, renderSummary, type BatchSummary } from "./summary";
import type { SourceData } from "../core/source-data";

export interface ProcessOptions {
  paths: string[];
  project?: string;
  out: string;
  concurrency?: number;
  pageLimit?: number;
  password?: string;
  json: boolean;
  /** Comma-separated export formats replacing the project's profiles (json, csv, xlsx, xml, pdf, jpg); invalid → invalid_input. */
  format?: string;
  /** Data folder of the processed-files ledger and its lock (cron-safe batches, src/batch/ledger-batch.ts). */
  data?: string;
  /** With `data`: process content the ledger has already finished again. */
  force?: boolean;
  /** Overrides the project's `ocr.engine`; default: the project's (auto). */
  ocrEngine?: "auto" | "wasm" | "native";
  /** source: results named after each file's stem (`--name-by source`; src/batch/output-names.ts). */
  nameBy?: "transaction" | "source";
  /** quiet: no progress bar or summary, failures only (stderr); verbose: a line per step instead of the bar. */
  verbosity?: "quiet" | "normal" | "verbose";
}

/** The runner and its settings: a few hundred modules, imported once the inputs are known (see runProcess). */
async function loadPipeline() {
  const [project, { profilesForFormats }, { runBatch }, { createFileProcessor }] = await Promise.all([
    import("../core/project"),
    import("../core/exporters"),
    import("./batch"),
    import("../batch/file-processor"),
  ]);
  return { ...project, profilesForFormats, runBatch, createFileProcessor };
}

export async function runProcess(opts: ProcessOptions): Promise<number> {
  const {
    files: found,
    skipped,
    reasons,
  } = await collectInputs(opts.paths, { exclude: [opts.out, ...(opts.data ? [opts.data] : [])] });
  // pdf.js takes 0.1-0.3 s to load in its worker thread: started now, it loads beside the pipeline modules below
  // instead of after them (an idle worker does not keep the process alive).
  if (found.some((f) => /\.pdf$/i.test(f))) void prewarmPdfWorkers(1).catch(() => undefined);
  const { defaultProject, loadProjectFile, profilesForFormats, runBatch, createFileProcessor } = await loadPipeline();
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  const profiles = opts.format !== undefined ? profilesForFormats([opts.format]) : undefined;
  const ledger = await openLedger(opts);
  const files = ledger ? await ledger.plan(found) : found;
  await mkdir(opts.out, { recursive: true });
  const cores = cpuCount();
  // One processor for the batch: one OCR engine (the flag, else the project's ocr.engine), one output folder.
  const processor = createFileProcessor({
    project,
    outDir: opts.out,
    source: "cli",
    ocrEngine: opts.ocrEngine,
    password: opts.password,
    nameBy: opts.nameBy,
    ...(profiles ? { profiles } : {}),
  });
  await reserveNames(processor, files);
  const progress = progressFor(opts, files.length);
  const started = performance.now();
  const onInterrupt = interruptHandler(progress);
  process.once("SIGINT", onInterrupt);
  try {
    const runFile = async (
      transactionId: string,
      file: string,
      extra: Record<string, unknown>,
      onProgress?: ProgressFn,
    ) => {
      // A PDF of 1 MiB or more lands in shared memory: its pdf.js workers read these bytes instead of copies; one of
      // 32 MiB or more is left in its file, which they read (pdf-bytes.ts, issue 34).
      const bytes = await readSourceFile(file);
      const metadata = { source_path: path.resolve(file), ...extra };
      return processor.run({ file, bytes, transactionId, metadata, pageLimit: opts.pageLimit ?? null, onProgress });
    };
    const outcomes = await runBatch({
      files,
      outDir: opts.out,
      concurrency: opts.concurrency ?? cores,
      lanes:
        opts.concurrency === undefined
          ? (finished) => lanesFor(cores, processor.ocrEngineName() !== null, finished)
          : undefined,
      progress,
      project,
      run: ledger
        ? ledger.wrap(runFile)
        : (transactionId, file, onProgress) => runFile(transactionId, file, {}, onProgress),
    });
    progress.stop();
    const base = buildSummary(pkg.version, opts.out, outcomes, (performance.now() - started) / 1000, skipped, reasons);
    // Which OCR engine ran (null: no page needed OCR), so a project's ocr.engine is visible in the summary.
    const summary = { ...base, ocr_engine: processor.ocrEngineName() };
    printSummary(opts, summary, ledger);
    // Files found but every one skipped: nothing was processed, which is not a success (exit 2, as for a usage error).
    if (found.length === 0 && skipped.length > 0) {
      if (opts.json)
        process.stderr.write(`docproc: nothing processed: ${skipped.length} file(s) skipped (see "skipped_reasons")\n`);
      return 2;
    }
    return summary.failed === 0 ? 0 : 1;
  } finally {
    process.off("SIGINT", onInterrupt);
    progress.stop();
    await processor.close();
    ledger?.close();
  }
}

/** --data: the ledger skips content already processed; its lock (exit 3) keeps overlapping cron runs apart. */
async function openLedger(opts: ProcessOptions) {
  return opts.data
    ? (await import("../batch/ledger-batch")).LedgerBatch.open({
        dataDir: opts.data,
        outDir: opts.out,
        force: opts.force,
      })
    : null;
}

/** Ctrl-C: leave the terminal clean (no half-drawn bar) and exit 130 like any interrupted command. */
function interruptHandler(progress: BatchProgress): () => void {
  return () => {
    progress.stop();
    process.stderr.write("docproc: interrupted; files already finished are in the output folder\n");
    process.exit(130);
  };
}

/**
 * Names from the source are claimed in the file list's order before anything runs: the suffixes of same-stem
 * files (a/scan.pdf → scan, b/scan.pdf → scan_1) do not depend on which finishes first.
 */
export async function reserveNames(
  processor: { reserveName(file: string, bytes: SourceData): string | null },
  files: string[],
): Promise<void> {
  for (const file of files) {
    // Read as the run reads it: a large PDF left in its file, and hashed from it (pdf-bytes.ts).
    const bytes = await readSourceFile(file).catch(() => null);
    if (!bytes || processor.reserveName(file, bytes) === null) break;
  }
}

/** No progress for --json or quiet, a line per step when verbose, else the bar (all on stderr). */
function progressFor(opts: ProcessOptions, fileCount: number): BatchProgress {
  return opts.json || opts.verbosity === "quiet"
    ? silentProgress
    : opts.verbosity === "verbose"
      ? stepLines(process.stderr)
      : createProgress(process.stderr, fileCount);
}

/** The summary as JSON (--json), failures only (quiet, on stderr), or the table for people. */
function printSummary(
  opts: ProcessOptions,
  summary: BatchSummary,
  ledger: { extendSummary(summary: BatchSummary): unknown; describeSkipped(): string } | null,
): void {
  if (opts.json) process.stdout.write(JSON.stringify(ledger ? ledger.extendSummary(summary) : summary, null, 2) + "\n");
  else if (opts.verbosity === "quiet") process.stderr.write(renderFailures(summary));
  else process.stdout.write(renderSummary(summary, process.stdout.columns || 100) + (ledger?.describeSkipped() ?? ""));
}

/**
 * Files in flight, by what the files finished so far needed (BatchContext.lanes; `--concurrency` overrides it):
 * - once a file needed OCR, one more than cores: with one file per core an OCR worker waits while a file is
 *   converted, classified and exported on the main thread;
 * - while every file read so far is a short born-digital one (a text layer, at most SHARE_MAX_PAGES pages), two per
 *   core: such files share one pdf.js worker per two cores (pdf-host.ts) and spend about as much time in it as on the
 *   main thread, so a second file per core keeps both busy. 100 one-page PDFs on two cores, idle: 1.33-1.39 s wall
 *   with two lanes, 1.11-1.25 s with four, the same CPU time;
 * - else one per core (a long PDF opens a pdf.js worker, a VM, of its own).
 * Failed files say nothing about the others and are left out.
 */
export function lanesFor(cores: number, ocrStarted: boolean, finished: BatchFileOutcome[]): number {
  if (ocrStarted) return cores + 1;
  const read = finished.filter((f) => f.status !== "failure");
  const short = read.length > 0 && read.every((f) => f.text_source === "text layer" && f.page_count <= SHARE_MAX_PAGES);
  return short ? 2 * cores : cores;
}

/** Kept for callers that import it from here; it lives in src/core/engines/ocr/lazy.ts. */
export { lazyOcrEngine } from "../core/engines/ocr/lazy";
