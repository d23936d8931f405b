/**
 * The one place the queue calls the core pipeline. Handlers depend on the `PipelineRunner` type only, so tests can
 * inject a fake runner and the real one can change without touching the queue.
 *
 * The core modules are imported lazily: the server starts in milliseconds and loads pdf.js / tesseract only when the
 * first job runs. The OCR engine is created once per process and shared by every job.
 */
import type { ProgressFn, ResultsFile, ResultsPage, DocumentResult, TransactionInput } from "../core/model";
import type { TransactionMeta } from "../core/results";
import type { StoredManifest } from "../storage/export-files";

export interface RunContext {
  meta: TransactionMeta;
  /** The project's stored settings (raw JSON; the runner validates them). */
  settings: unknown;
  /** Folder the export files of this transaction go to. */
  exportDir: string;
  onProgress: ProgressFn;
  signal: AbortSignal;
}

export interface RunResult {
  status: "success" | "partial" | "failure";
  documents: DocumentResult[];
  pages: Array<ResultsPage & { source_file_index?: number }>;
  manifest: StoredManifest;
  errors: Array<{ source_file_index?: number; stage: string; code: string; message: string }>;
  warnings: string[];
  /** The full results file (pages with words), kept for review (docs/review.md). */
  results?: ResultsFile;
}

export type PipelineRunner = (input: TransactionInput, ctx: RunContext) => Promise<RunResult>;

export interface CorePipelineRunner {
  run: PipelineRunner;
  /** "idle" until the first job loads the engine, then "ready", or the error that stopped it. */
  ocrStatus(): { status: "idle" | "loading" | "ready" | "error"; engine?: string; error?: string };
  /** Starts loading the OCR engine in the background (so /health can report readiness before the first job). */
  warm(): void;
  close(): Promise<void>;
}

export function corePipelineRunner(opts: { engine?: "auto" | "wasm" | "native"; ocrWorkers?: number } = {}): CorePipelineRunner {
  type Engine = { name: string; close(): Promise<void> };
  let ocr: Promise<Engine> | null = null;
  let state: ReturnType<CorePipelineRunner["ocrStatus"]> = { status: "idle" };
  let pdfClient: Promise<typeof import("../core/convert/pdf-client")> | null = null;

  const engine = () => {
    if (!ocr) {
      state = { status: "loading" };
      const loading: Promise<Engine> = import("../core/engines/ocr").then(
        (m) => m.createOcrEngine({ engine: opts.engine ?? "auto", workers: opts.ocrWorkers ?? 1 }) as Promise<Engine>,
      );
      ocr = loading;
      loading.then(
        (e) => (state = { status: "ready", engine: e.name }),
        (err) => {
          state = { status: "error", error: (err as Error).message };
          ocr = null; // a later job may try again
        },
      );
    }
    return ocr;
  };

  const run: PipelineRunner = async (input, ctx) => {
    const [{ processTransaction }, { parseProjectSettings }, { folderSink }] = await Promise.all([
      import("../core/pipeline"),
      import("../core/project"),
      import("../core/exporters/sink"),
    ]);
    const project = parseProjectSettings(ctx.settings);
    const res = await processTransaction(input, {
      meta: ctx.meta,
      project,
      ocr: (await engine()) as never,
      sink: folderSink(ctx.exportDir),
      onProgress: ctx.onProgress,
      signal: ctx.signal,
    });
    const fileIndexOf = new Map(res.pages.map((p) => [p.page_number, p.source_file_index]));
    const pages = (res.results.pages ?? []).map((p) => ({ ...p, source_file_index: fileIndexOf.get(p.page_number) }));
    return {
      status: res.status,
      documents: res.results.documents,
      pages,
      manifest: res.manifest,
      errors: res.errors,
      warnings: res.warnings,
      results: res.results,
    };
  };

  return {
    run,
    ocrStatus: () => state,
    warm() {
      engine().catch(() => {}); // the error is kept in ocrStatus()
      // A long-running process keeps two pdf.js workers: a long PDF is then shared between them (pdf.ts uses spare
      // workers as helpers), about twice the text-extraction throughput of one on two cores. Idle ones cost ~40 MB.
      pdfClient = import("../core/convert/pdf-client");
      pdfClient.then((m) => m.prewarmPdfWorkers(2)).catch(() => {});
    },
    async close() {
      const e = await ocr?.catch(() => null);
      await e?.close();
      (await pdfClient?.catch(() => null))?.closeIdlePdfWorkers();
    },
  };
}
