/**
 * One local file through the transaction runner: what `docproc process` and `docproc watch` share. It builds the
 * transaction metadata, picks the OCR engine (the caller's override, else the project's `ocr.engine`), runs the
 * workflow with notifications delivered inline, and reports one outcome.
 *
 * MUST never throw for a bad file: every failure comes back as `failed: true` with a reason.
 */
import { cpuCount } from "../core/cores";
import path from "node:path";
import type { OcrEngine, OcrEngineKind } from "../core/engines/ocr";
import { lazyOcrEngine } from "../core/engines/ocr/lazy";
import { folderSink } from "../core/exporters";
import type { ProgressFn } from "../core/model";
import type { ProjectSettings } from "../core/project";
import {
  describeFailure,
  inlineNotifier,
  localMeta,
  ocrEngineOf,
  runTransaction,
  type InlineNotifySettings,
  type RunOutcome,
} from "../core/runner";
import { notificationNodes } from "../core/stages/notify";
import { usesSourceStem, withBaseName } from "../core/exporters/names";
import { OutputNames, ownerOf } from "./output-names";
import type { SourceData } from "../core/source-data";

export interface FileJob {
  file: string;
  /** The file's content, or a large PDF left in its file (readSourceFile). */
  bytes: SourceData;
  transactionId: string;
  metadata: Record<string, unknown>;
  pageLimit?: number | null;
  onProgress?: ProgressFn;
}

export interface FileRun {
  outcome: RunOutcome;
  /** The run failed (also when a fail_workflow_on_error delivery failed); `error` says why. */
  failed: boolean;
  error: string | null;
  /** The `<transaction_id>_data.json` written, when there is one. */
  results_path: string | null;
  seconds: number;
}

export interface FileProcessor {
  run(job: FileJob): Promise<FileRun>;
  /**
   * Claims the base name of `file`'s results in the output folder when its export names come from the source
   * (src/batch/output-names.ts); `run` claims too, this lets a batch claim in its file order first. Null when
   * no name depends on the source.
   */
  reserveName(file: string, bytes: SourceData): string | null;
  /** The OCR engine actually started ("wasm", "native (…)"), or null when no page needed OCR. */
  ocrEngineName(): string | null;
  close(): Promise<void>;
}

export interface FileProcessorOptions {
  project: ProjectSettings;
  outDir: string;
  /** "cli" or "watch". */
  source: string;
  /** Overrides the project's `ocr.engine` (the --ocr-engine flag). */
  ocrEngine?: OcrEngineKind;
  /** An engine the caller owns (tests); else one is started on the first page that needs OCR. */
  ocr?: OcrEngine;
  password?: string;
  profiles?: ProjectSettings["export_profiles"];
  /** Default: DOCPROC_PUBLIC_URL and DOCPROC_WEBHOOK_ALLOW (src/settings/env.ts). */
  notify?: InlineNotifySettings;
  /**
   * transaction (default): the profiles' names (`<transaction_id>_data.json`, ...); source: every file named after
   * the source's stem (`--name-by source`: `<stem>.json`, `<stem>.csv`, ...). Either way a `{source_stem}` in a
   * name is the stem made unique in the output folder.
   */
  nameBy?: "transaction" | "source";
}

export function createFileProcessor(opts: FileProcessorOptions): FileProcessor {
  const engine = ocrEngineOf(opts.project, opts.ocrEngine);
  // The engines' modules (tesseract hosts, traineddata) load with the first page that needs OCR, not with every run.
  const lazy = opts.ocr
    ? null
    : lazyOcrEngine(async () => (await import("../core/engines/ocr")).createOcrEngine({ engine, workers: cpuCount() }));
  const ocr = opts.ocr ?? lazy!;
  const sink = folderSink(opts.outDir);
  const hasNodes = notificationNodes(opts.project.workflow).length > 0;
  const notifySettings = hasNodes ? (opts.notify ?? notifySettingsFromEnv()) : null;
  const profiles = opts.profiles ?? opts.project.export_profiles;
  const bySource = opts.nameBy === "source";
  const names = bySource || usesSourceStem(profiles) ? new OutputNames(opts.outDir) : null;
  const reserveName = (file: string, bytes: SourceData) => names?.claim(file, ownerOf(file, bytes)) ?? null;
  return {
    reserveName,
    async run(job) {
      const started = performance.now();
      const base = reserveName(job.file, job.bytes);
      const runProfiles =
        base === null ? opts.profiles : withBaseName(profiles, base, bySource ? "source" : "template");
      const meta = localMeta({
        transactionId: job.transactionId,
        project: opts.project,
        metadata: job.metadata,
        source: opts.source,
      });
      const ref = { tenant_id: meta.tenant_id, project_id: meta.project_id, transaction_id: meta.transaction_id };
      const outcome = await runTransaction(
        {
          sources: [{ index: 0, filename: path.basename(job.file), data: job.bytes, split_policy: "inherit" }],
          pageLimit: job.pageLimit ?? null,
        },
        {
          meta,
          project: opts.project,
          ocr,
          sink,
          onProgress: job.onProgress,
          password: opts.password,
          // Nothing here resumes or re-runs a transaction: no copy of its state is made.
          keepState: false,
          ...(runProfiles ? { profiles: runProfiles } : {}),
          ...(notifySettings ? { notify: inlineNotifier(opts.project, ref, notifySettings) } : {}),
        },
      );
      const failed = outcome.status === "failure";
      return {
        outcome,
        failed,
        error: failed ? describeFailure(outcome) : null,
        results_path: resultsPathOf(outcome, opts.outDir, bySource && base !== null ? `${base}.json` : undefined),
        seconds: (performance.now() - started) / 1000,
      };
    },
    ocrEngineName: () => (opts.ocr ? opts.ocr.name : (lazy!.started()?.name ?? null)),
    close: () => ocr.close(),
  };
}

/** DOCPROC_PUBLIC_URL and DOCPROC_WEBHOOK_ALLOW, from the environment settings (src/settings/env.ts). */
export function notifySettingsFromEnv(): InlineNotifySettings {
  // Required here, not imported: the environment's schema with the server, mail and storage settings it reads is ~20
  // modules and ~15 ms of CPU of every `docproc process` start, and only a project that notifies needs it (issue 34).
  const { loadEnvSettings } = require("../settings/env") as typeof import("../settings/env");
  const { webhooks } = loadEnvSettings();
  return { publicBaseUrl: webhooks.publicUrl, allowPrivate: webhooks.allowPrivate };
}

/** The transaction's JSON results file: `<transaction_id>_data.json`, or `name` (e.g. `<stem>.json` by source). */
export function resultsPathOf(
  outcome: Pick<RunOutcome, "results" | "manifest">,
  outDir: string,
  name = `${outcome.results.transaction_id}_data.json`,
): string | null {
  for (const entry of Object.values(outcome.manifest.profiles)) {
    for (const f of entry.files) if (path.basename(f.filename) === name) return path.resolve(outDir, f.filename);
  }
  return null;
}
