/**
 * The work behind `docproc process`: collect inputs, load the project, share one OCR engine, run the batch, print
 * the summary. Returns the exit code (0 all succeeded, 1 any file failed); usage and configuration problems throw
 * `DocprocError` (invalid_input → 2, invalid_settings → 4) before any file is touched.
 */
import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import pkg from "../../package.json" with { type: "json" };
import type { OcrEngine } from "../core/engines/ocr";
import type { PipelineContext } from "../core/pipeline";
import type { ProjectSettings } from "../core/project";
import { prewarmPdfWorkers } from "../core/convert/pdf-client";
import { collectInputs } from "./inputs";
import { createProgress, silentProgress } from "./progress";
import { buildSummary, renderSummary } from "./summary";

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
  /** Overrides the project's `ocr.engine`; default auto. */
  ocrEngine?: "auto" | "wasm" | "native";
}

/** The pipeline and its settings: a few hundred modules, imported once the inputs are known (see runProcess). */
async function loadPipeline() {
  const [{ processTransaction }, project, { createOcrEngine }, { folderSink, profilesForFormats }, { runBatch }, { notifyingProcess }] = await Promise.all([
    import("../core/pipeline"),
    import("../core/project"),
    import("../core/engines/ocr"),
    import("../core/exporters"),
    import("./batch"),
    import("./notify"),
  ]);
  return { processTransaction, ...project, createOcrEngine, folderSink, profilesForFormats, runBatch, notifyingProcess };
}

export async function runProcess(opts: ProcessOptions): Promise<number> {
  const { files: found, skipped } = await collectInputs(opts.paths, { exclude: [opts.out, ...(opts.data ? [opts.data] : [])] });
  // pdf.js takes 0.1-0.3 s to load in its worker thread: started now, it loads beside the pipeline modules below
  // instead of after them (an idle worker does not keep the process alive).
  if (found.some((f) => /\.pdf$/i.test(f))) void prewarmPdfWorkers(1).catch(() => undefined);
  const { processTransaction, defaultProject, loadProjectFile, createOcrEngine, folderSink, profilesForFormats, runBatch, notifyingProcess } = await loadPipeline();
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  const profiles = opts.format !== undefined ? profilesForFormats([opts.format]) : undefined;
  // --data: the ledger skips content already processed; its lock (exit 3) keeps overlapping cron runs apart.
  const ledger = opts.data ? (await import("../batch/ledger-batch")).LedgerBatch.open({ dataDir: opts.data, outDir: opts.out, force: opts.force }) : null;
  const files = ledger ? await ledger.plan(found) : found;
  await mkdir(opts.out, { recursive: true });
  const cores = availableParallelism();
  const ocr = lazyOcrEngine(() => createOcrEngine({ engine: opts.ocrEngine ?? ocrEngineSetting(project), workers: cores }));
  const sink = folderSink(opts.out);
  const progress = opts.json ? silentProgress : createProgress(process.stderr, files.length);
  const started = performance.now();
  // Ctrl-C: leave the terminal clean (no half-drawn bar) and exit 130 like any interrupted command.
  const onInterrupt = () => {
    progress.stop();
    process.stderr.write("docproc: interrupted; files already finished are in the output folder\n");
    process.exit(130);
  };
  process.once("SIGINT", onInterrupt);
  try {
    const outcomes = await runBatch({
      files,
      outDir: opts.out,
      concurrency: opts.concurrency ?? cores,
      pageLimit: opts.pageLimit ?? null,
      progress,
      // Webhooks of the project's Notification steps are sent inline after each file (src/cli/notify.ts).
      process: ledger ? ledger.process(notifyingProcess(project, processTransaction)) : notifyingProcess(project, processTransaction),
      contextFor: withLedger(ledger, (transactionId, file): PipelineContext => ({
        meta: {
          transaction_id: transactionId,
          tenant_id: "local",
          project_id: projectId(project),
          project_version: projectVersion(project),
          correlation_id: null,
          metadata: { source_path: path.resolve(file) },
          created_at: new Date().toISOString(),
          source: "cli",
        },
        project,
        ocr,
        sink,
        password: opts.password,
        ...(profiles ? { profiles } : {}),
      })),
    });
    progress.stop();
    const summary = buildSummary(pkg.version, opts.out, ledger ? ledger.fixOutcomes(outcomes) : outcomes, (performance.now() - started) / 1000, skipped);
    if (opts.json) process.stdout.write(JSON.stringify(ledger ? ledger.extendSummary(summary) : summary, null, 2) + "\n");
    else process.stdout.write(renderSummary(summary, process.stdout.columns || 100) + (ledger?.describeSkipped() ?? ""));
    return summary.failed === 0 ? 0 : 1;
  } finally {
    process.off("SIGINT", onInterrupt);
    progress.stop();
    await ocr.close();
    ledger?.close();
  }
}

type ContextFor = (transactionId: string, file: string) => PipelineContext;

function withLedger(ledger: { contextFor(build: ContextFor): ContextFor } | null, build: ContextFor): ContextFor {
  return ledger ? ledger.contextFor(build) : build;
}

/**
 * Starts the OCR engine (tesseract workers, traineddata) only when a page first needs OCR: a batch of born-digital
 * PDFs never pays for it.
 */
export function lazyOcrEngine(create: () => Promise<OcrEngine>, workers = availableParallelism()): OcrEngine {
  let engine: Promise<OcrEngine> | undefined;
  return {
    name: "lazy",
    workers,
    recognize: async (img, o) => {
      engine ??= create();
      return (await engine).recognize(img, o);
    },
    recognizeMany: async (imgs, o) => {
      engine ??= create();
      const e = await engine.catch(() => null);
      if (!e) return imgs.map(() => null);
      return e.recognizeMany ? e.recognizeMany(imgs, o) : Promise.all(imgs.map((img) => e.recognize(img, o).catch(() => null)));
    },
    close: async () => {
      if (engine) await (await engine).close();
    },
  } as OcrEngine;
}

function ocrEngineSetting(project: ProjectSettings): "auto" | "wasm" | "native" {
  const engine = (project as { ocr?: { engine?: string } }).ocr?.engine;
  return engine === "wasm" || engine === "native" ? engine : "auto";
}

/** A project file is not a stored project: it has no id or version of its own, so the CLI uses fixed ones. */
function projectId(project: ProjectSettings): string {
  return (project as { id?: unknown }).id && typeof (project as { id?: unknown }).id === "string" ? String((project as { id?: unknown }).id) : "default";
}

function projectVersion(project: ProjectSettings): number {
  const v = (project as { version?: unknown }).version;
  return typeof v === "number" ? v : 1;
}
