/**
 * The one place the queue calls the core pipeline. Handlers depend on the `PipelineRunner` type only, so tests can
 * inject a fake runner and the real one can change without touching the queue.
 *
 * The core modules are imported lazily: the server starts in milliseconds and loads pdf.js / tesseract only when the
 * first job runs. The OCR engine is created once per process and shared by every job.
 */
import type { ProgressFn, ResultsPage, DocumentResult, TransactionInput } from "../core/model";
import type { TransactionMeta } from "../core/results";
import type { RunOutcome, SavedRun } from "../core/runner/types";
import type { NotifyFn, Stage, StageName } from "../core/stages/types";
import type { ProjectSettings } from "../core/project";
import type { StoredManifest } from "../storage/files/export-files";
import { runJsonOf, type RunJson } from "../storage/results/run-json";
import type { StorageConfig } from "../storage/files/storage-config";
import { reviewStage } from "../core/stages/review/stage";

export interface RunContext {
  meta: TransactionMeta;
  /** The project's stored settings (raw JSON; the runner validates them). */
  settings: unknown;
  /** Folder the export files of this transaction go to (the data directory's store). */
  exportDir: string;
  /** The blob store when it is not the data directory: export files go there instead (plain data: crosses threads). */
  storage?: StorageConfig;
  onProgress: ProgressFn;
  signal: AbortSignal;
  /** Fires on a graceful shutdown: the run stops at its next checkpoint and returns `interrupted` (core/runner). */
  checkpoint?: AbortSignal;
  /** Continue a stored run: where it paused, or (with `fromStep`) a rerun from that workflow step. */
  resume?: { saved: SavedRun; fromStep?: StageName };
  /** A Notification node was reached (the server enqueues its delivery at once). */
  notify?: NotifyFn;
}

/**
 * The runner's outcome (`RunOutcome`, core/runner/types.ts) mapped for the queue: what crosses back from the
 * pipeline thread and is stored. Status, review metadata, warnings and errors are the runner's own; the pages lose
 * their words (results pages), the manifest is the stored one, and the results and run state travel as JSON text
 * (`json`) or, from an injected test runner, as objects or not at all. interrupted: stopped at a checkpoint on
 * request; `saved` continues it.
 */
export interface QueueRunOutcome
  extends Pick<RunOutcome, "status" | "review_metadata" | "warnings" | "errors">,
    Partial<Pick<RunOutcome, "saved" | "results">> {
  documents: DocumentResult[];
  pages: Array<ResultsPage & { source_file_index?: number }>;
  manifest: StoredManifest;
  /**
   * `results` and `saved` as JSON text instead (the core runner's way: made where the run happened, so their
   * words never cross to the HTTP thread as objects; storage/results/run-json.ts). When present, `results` and `saved` are
   * left out.
   */
  json?: RunJson;
}

export type PipelineRunner = (input: TransactionInput, ctx: RunContext) => Promise<QueueRunOutcome>;

export interface CorePipelineRunner {
  run: PipelineRunner;
  /** "idle" until the first job loads the engine, then "ready", or the error that stopped it. */
  ocrStatus(): { status: "idle" | "loading" | "ready" | "error"; engine?: string; error?: string; engines?: string[] };
  /** Starts loading the OCR engine in the background (so /health can report readiness before the first job). */
  warm(): void;
  close(): Promise<void>;
}

type EngineKind = "auto" | "wasm" | "native";

/**
 * A results page without its words, copied member by member: destructuring `words` away would read them, and a
 * text-layer page's words are packed until read (core/convert/page-words.ts): 500 pages unpacked for nothing.
 */
function withoutWords(page: ResultsPage): Omit<ResultsPage, "words"> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(page)) if (key !== "words") out[key] = page[key as keyof ResultsPage];
  return out as Omit<ResultsPage, "words">;
}

/** How many projects' parsed settings a runner keeps. */
const SETTINGS_CACHE_SIZE = 32;

/**
 * Parsed project settings, one object per project version, reused by every job of that version. Core keeps
 * per-project work keyed by that object (the classifier trained from the classes' examples, label search indexes),
 * so a fresh parse per job made every one-page transaction rebuild them. The object MUST NOT be mutated: core reads
 * settings only (test/queue/settings-cache.test.ts runs the pipeline on deep-frozen settings). The settings' JSON
 * text is compared too, so a version that somehow changed its settings is parsed again.
 */
export function projectSettingsCache() {
  const entries = new Map<string, { text: string; project: ProjectSettings }>();
  return {
    get(projectId: string, version: number, raw: unknown, parse: (raw: unknown) => ProjectSettings): ProjectSettings {
      const key = `${projectId}:${version}`;
      const text = JSON.stringify(raw);
      const hit = entries.get(key);
      if (hit && hit.text === text) return hit.project;
      const project = parse(raw);
      entries.delete(key);
      entries.set(key, { text, project });
      if (entries.size > SETTINGS_CACHE_SIZE) entries.delete(entries.keys().next().value!);
      return project;
    },
  };
}

/**
 * `engine` overrides every project's `ocr.engine` (none by default: each project's choice applies). One engine per
 * kind is started, on first use, and shared by every job; `ocrStatus` reports the last one started and, in
 * `engines`, every engine ready in this process (projects may choose different ones).
 */
export function corePipelineRunner(
  opts: { engine?: EngineKind; ocrWorkers?: number; stages?: Partial<Record<StageName, Stage>> } = {},
): CorePipelineRunner {
  const ocr = ocrEngines(opts.ocrWorkers ?? 1);
  let pdfClient: Promise<typeof import("../core/engines/pdf/pdf-client")> | null = null;

  const settingsCache = projectSettingsCache();

  const run: PipelineRunner = async (input, ctx) => {
    const [runner, { parseProjectSettings }, { folderSink }, { exportSinkFor }] = await Promise.all([
      import("../core/runner"),
      import("../core/project"),
      import("../core/exporters/sink"),
      import("../storage/files/store-sink"),
    ]);
    const project = settingsCache.get(
      ctx.meta.project_id,
      ctx.meta.project_version,
      ctx.settings,
      parseProjectSettings,
    );
    const runOpts = {
      meta: ctx.meta,
      project,
      ocr: (await ocr.engine(runner.ocrEngineOf(project, opts.engine))) as never,
      sink: (ctx.storage && exportSinkFor(ctx.storage, ctx.meta.transaction_id)) || folderSink(ctx.exportDir),
      onProgress: ctx.onProgress,
      signal: ctx.signal,
      checkpoint: ctx.checkpoint,
      notify: ctx.notify,
      // The server's Review step pauses the run for a person (docs/review.md); the CLI's never does.
      stages: { review: reviewStage, ...opts.stages },
    };
    const res = ctx.resume
      ? await runner.resumeTransaction(input, ctx.resume.saved, runOpts, ctx.resume.fromStep)
      : await runner.runTransaction(input, runOpts);
    if (res.status === "failure") throw res.error ?? new Error("processing failed");
    return queueOutcomeOf(res);
  };

  return {
    run,
    ocrStatus: ocr.status,
    warm() {
      ocr.engine(opts.engine ?? "auto").catch(() => {}); // the error is kept in ocrStatus()
      // A long-running process keeps two pdf.js workers: a long PDF is then shared between them (pdf.ts uses spare
      // workers as helpers), about twice the text-extraction throughput of one on two cores. Idle ones cost ~40 MB.
      pdfClient = import("../core/engines/pdf/pdf-client");
      pdfClient.then((m) => m.prewarmPdfWorkers(2)).catch(() => {});
    },
    async close() {
      await ocr.close();
      (await pdfClient?.catch(() => null))?.closeIdlePdfWorkers();
    },
  };
}

/** The runner's outcome as the queue takes it (QueueRunOutcome): results pages without words, state as JSON text. */
function queueOutcomeOf(res: RunOutcome): QueueRunOutcome {
  const fileIndexOf = new Map(res.pages.map((p) => [p.page_number, p.source_file_index]));
  const pages = (res.results.pages ?? []).map((p) => ({
    ...withoutWords(p),
    source_file_index: fileIndexOf.get(p.page_number),
  }));
  return {
    status: res.status,
    review_metadata: res.review_metadata,
    documents: res.results.documents,
    pages,
    manifest: res.manifest,
    errors: res.errors,
    warnings: res.warnings,
    json: runJsonOf(res.results, res.saved, res.pages),
  };
}

/** OCR engines started on first use, one per kind, shared by every job; `status` is what /health reports. */
function ocrEngines(workers: number) {
  type Engine = { name: string; close(): Promise<void> };
  const engines = new Map<EngineKind, Promise<Engine>>();
  let state: ReturnType<CorePipelineRunner["ocrStatus"]> = { status: "idle" };
  const ready = new Set<string>();
  const engine = (kind: EngineKind) => {
    let ocr = engines.get(kind);
    if (!ocr) {
      state = { status: "loading" };
      const loading: Promise<Engine> = import("../core/engines/ocr").then(
        (m) => m.createOcrEngine({ engine: kind, workers }) as Promise<Engine>,
      );
      ocr = loading;
      engines.set(kind, loading);
      loading.then(
        (e) => {
          ready.add(e.name);
          state = { status: "ready", engine: e.name };
        },
        (err) => {
          state = { status: "error", error: (err as Error).message };
          engines.delete(kind); // a later job may try again
        },
      );
    }
    return ocr;
  };
  return {
    engine,
    status: (): ReturnType<CorePipelineRunner["ocrStatus"]> =>
      ready.size ? { ...state, engines: [...ready].sort() } : state,
    async close() {
      for (const loading of engines.values()) await (await loading.catch(() => null))?.close();
    },
  };
}
