/**
 * One local file through the transaction runner: what `docproc process` and `docproc watch` share. It builds the
 * transaction metadata, picks the OCR engine (the caller's override, else the project's `ocr.engine`), runs the
 * workflow with notifications delivered inline, and reports one outcome.
 *
 * MUST never throw for a bad file: every failure comes back as `failed: true` with a reason.
 */
import { availableParallelism } from "node:os";
import path from "node:path";
import { createOcrEngine, lazyOcrEngine, type OcrEngine, type OcrEngineKind } from "../core/engines/ocr";
import { folderSink } from "../core/exporters";
import type { ProgressFn } from "../core/model";
import type { ProjectSettings } from "../core/project";
import { describeFailure, inlineNotifier, localMeta, ocrEngineOf, runTransaction, type InlineNotifySettings, type RunOutcome } from "../core/runner";
import { notificationNodes } from "../core/stages/notify";
import { loadEnvSettings } from "../settings/env";

export interface FileJob {
  file: string;
  bytes: Uint8Array;
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
}

export function createFileProcessor(opts: FileProcessorOptions): FileProcessor {
  const engine = ocrEngineOf(opts.project, opts.ocrEngine);
  const lazy = opts.ocr ? null : lazyOcrEngine(() => createOcrEngine({ engine, workers: availableParallelism() }));
  const ocr = opts.ocr ?? lazy!;
  const sink = folderSink(opts.outDir);
  const hasNodes = notificationNodes(opts.project.workflow).length > 0;
  const notifySettings = hasNodes ? (opts.notify ?? notifySettingsFromEnv()) : null;
  return {
    async run(job) {
      const started = performance.now();
      const meta = localMeta({ transactionId: job.transactionId, project: opts.project, metadata: job.metadata, source: opts.source });
      const ref = { tenant_id: meta.tenant_id, project_id: meta.project_id, transaction_id: meta.transaction_id };
      const outcome = await runTransaction(
        { sources: [{ index: 0, filename: path.basename(job.file), data: job.bytes, split_policy: "inherit" }], pageLimit: job.pageLimit ?? null },
        {
          meta,
          project: opts.project,
          ocr,
          sink,
          onProgress: job.onProgress,
          password: opts.password,
          ...(opts.profiles ? { profiles: opts.profiles } : {}),
          ...(notifySettings ? { notify: inlineNotifier(opts.project, ref, notifySettings) } : {}),
        },
      );
      const failed = outcome.status === "failure";
      return {
        outcome,
        failed,
        error: failed ? describeFailure(outcome) : null,
        results_path: resultsPathOf(outcome, opts.outDir),
        seconds: (performance.now() - started) / 1000,
      };
    },
    ocrEngineName: () => (opts.ocr ? opts.ocr.name : (lazy!.started()?.name ?? null)),
    close: () => ocr.close(),
  };
}

/** DOCPROC_PUBLIC_URL and DOCPROC_WEBHOOK_ALLOW, from the environment settings (src/settings/env.ts). */
export function notifySettingsFromEnv(): InlineNotifySettings {
  const { webhooks } = loadEnvSettings();
  return { publicBaseUrl: webhooks.publicUrl, allowPrivate: webhooks.allowPrivate };
}

export function resultsPathOf(outcome: Pick<RunOutcome, "results" | "manifest">, outDir: string): string | null {
  const name = `${outcome.results.transaction_id}_data.json`;
  for (const entry of Object.values(outcome.manifest.profiles)) {
    for (const f of entry.files) if (path.basename(f.filename) === name) return path.resolve(outDir, f.filename);
  }
  return null;
}
