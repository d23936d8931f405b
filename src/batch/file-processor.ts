/**
 * One file of a hot folder through the pipeline: the transaction of a claimed ledger entry, with folder metadata.
 * Never throws for a bad file: every failure comes back as `status: "failed"` with a reason.
 */
import { availableParallelism } from "node:os";
import path from "node:path";
import { DocprocError, wrapStageError } from "../core/errors";
import { createOcrEngine, type OcrEngine } from "../core/engines/ocr";
import { folderSink } from "../core/exporters";
import { processTransaction, type PipelineResult } from "../core/pipeline";
import type { ProjectSettings } from "../core/project";
import { lazyOcrEngine } from "../cli/process-run";
import { resultsPathOf } from "./ledger-batch";
import { notifyFinished } from "./notify-run";

export interface FileOutcome {
  status: "done" | "failed";
  /** The pipeline's own status (a `partial` result counts as done: its results file exists). */
  pipeline_status: PipelineResult["status"] | "error";
  results_path: string | null;
  documents: number;
  error: string | null;
  /** Survivable problems (failed webhook deliveries among them). */
  warnings: string[];
  seconds: number;
}

export interface FileJob {
  file: string;
  bytes: Uint8Array;
  transactionId: string;
  metadata: Record<string, unknown>;
}

export interface FileProcessor {
  run(job: FileJob): Promise<FileOutcome>;
  close(): Promise<void>;
}

export function createFileProcessor(opts: { project: ProjectSettings; outDir: string; source?: string; ocr?: OcrEngine; ocrEngine?: "auto" | "wasm" | "native" }): FileProcessor {
  const engine = opts.ocrEngine ?? projectOcrEngine(opts.project);
  const ocr = opts.ocr ?? lazyOcrEngine(() => createOcrEngine({ engine, workers: availableParallelism() }));
  const sink = folderSink(opts.outDir);
  const projectId = typeof (opts.project as { id?: unknown }).id === "string" ? String((opts.project as { id?: unknown }).id) : "default";
  return {
    async run(job) {
      const started = performance.now();
      const elapsed = () => (performance.now() - started) / 1000;
      try {
        const result = await processTransaction(
          { sources: [{ index: 0, filename: path.basename(job.file), data: job.bytes, split_policy: "inherit" }], pageLimit: null },
          {
            meta: {
              transaction_id: job.transactionId,
              tenant_id: "local",
              project_id: projectId,
              project_version: 1,
              correlation_id: null,
              metadata: job.metadata,
              created_at: new Date().toISOString(),
              source: opts.source ?? "watch",
            },
            project: opts.project,
            ocr,
            sink,
          },
        );
        const failed = result.status === "failure";
        const ref = { tenant_id: "local", project_id: projectId, transaction_id: job.transactionId };
        const notified = await notifyFinished(
          opts.project,
          ref,
          failed ? { status: "failed", error: describeErrors(result), failedStage: result.errors[0]?.stage ?? null, manifest: result.manifest } : { status: "completed", manifest: result.manifest },
        );
        const error = failed ? describeErrors(result) : notified.failWorkflow;
        return {
          status: error ? "failed" : "done",
          pipeline_status: result.status,
          results_path: resultsPathOf(result, opts.outDir),
          documents: result.results.documents.length,
          error,
          warnings: [...result.warnings, ...notified.warnings],
          seconds: elapsed(),
        };
      } catch (err) {
        const e = err instanceof DocprocError ? err : wrapStageError("pipeline", err);
        const error = `${e.message} [${e.code}, ${e.stage ?? "pipeline"}]`;
        const ref = { tenant_id: "local", project_id: projectId, transaction_id: job.transactionId };
        const notified = await notifyFinished(opts.project, ref, { status: "failed", error, failedStage: e.stage ?? null }).catch((n) => ({ warnings: [String(n)] }));
        return { status: "failed", pipeline_status: "error", results_path: null, documents: 0, error, warnings: notified.warnings, seconds: elapsed() };
      }
    },
    close: () => ocr.close(),
  };
}

function projectOcrEngine(project: ProjectSettings): "auto" | "wasm" | "native" {
  const engine = (project as { ocr?: { engine?: string } }).ocr?.engine;
  return engine === "wasm" || engine === "native" ? engine : "auto";
}

function describeErrors(result: PipelineResult): string {
  return result.errors.map((e) => `${e.message} [${e.code}, ${e.stage}]`).join("\n") || "processing failed";
}
