/**
 * The `process_transaction` job, in three steps: load (transaction-load.ts: inputs and the stored state to continue
 * from), run (the pipeline, through the injected `PipelineRunner`), store (transaction-store.ts: run state, results
 * and the final status under the job's lease).
 *
 * MUST be safe to run again after a crash: export files of an earlier attempt are wiped first, and results replace
 * (never add to) earlier rows inside `helpers.finish`, under the job's lease.
 *
 * The job's payload says where the run starts: `{ transaction_id }` from the start; `{ resume: true }` where a
 * paused run stopped; `{ from_step, run }` a rerun from that workflow step. The last two read the run state stored
 * (storage/results/run-state.ts) when the transaction paused or finished, so nothing is converted or OCR'd again.
 * A step MAY pause the transaction in `awaiting_input` by throwing `AwaitInput` (core/runner): its state is stored
 * and `enqueueResume` (queue/submit.ts) queues its continuation.
 */
import { isoAt, type Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import { AwaitInput } from "../core/stages/types";
import type { BlobStore } from "../storage/files/blobs";
import type { Db } from "../storage/schema/db";
import type { StoredManifest } from "../storage/files/export-files";
import { getReviewState } from "../storage/results/review-states";
import * as tx from "../storage/transactions/transactions";
import type { Notifier } from "./notifier";
import type { PipelineRunner, RunContext } from "./pipeline-runner";
import { createProgressTracker, type ProgressTracker } from "./progress";
import { PROCESS_TRANSACTION, type FinishedOutcome } from "./transaction-job";
import { clientMetadata, loadRun, secondsOf, type LoadedRun, type ProcessPayload } from "./transaction-load";
import { storeOutcome } from "./transaction-store";
import type { JobHelpers } from "./job-handler";
import type { WorkerPool } from "./worker";

export { AwaitInput };
export type { ProcessPayload };

export interface ProcessDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  notifier: Notifier;
  runPipeline: PipelineRunner;
  /**
   * Export files go to `<exportsRoot>/<transaction_id>/` when the store is the data directory, else into the store
   * (`exports/<transaction_id>/`); run state always goes to the store (storage/results/run-state.ts).
   */
  exportsRoot: string;
  /** A Notification node was reached mid-run: enqueue its delivery now (wired by startWorkerRuntime). */
  onReached?: (transactionId: string, stepIndex: number, manifest: StoredManifest, run: number) => void;
  /** Minimum milliseconds between progress writes. */
  progressEveryMs?: number;
  /** Longest one processing attempt may take (default 30 minutes); then the transaction fails with a timeout. */
  jobTimeoutMs?: number;
  /**
   * Runs in the SAME SQLite transaction that gives the transaction its final status, so follow-up work (e.g.
   * webhook delivery jobs, enqueued with `enqueue(db, ...)`) is recorded if and only if the status is.
   */
  onFinished?: (db: Db, outcome: FinishedOutcome) => void;
}

export function registerProcessTransaction(pool: WorkerPool, deps: ProcessDeps): void {
  pool.registerHandler(PROCESS_TRANSACTION, (payload: ProcessPayload, helpers) => processJob(payload, deps, helpers), {
    timeoutMs: deps.jobTimeoutMs ?? 30 * 60_000,
    onRelease(payload: { transaction_id: string }) {
      tx.markRequeued(deps.db, payload.transaction_id, isoAt(deps.clock));
      deps.notifier.emit(payload.transaction_id);
    },
    onFailure: (payload: ProcessPayload, message, willRetry, err) =>
      onJobFailure(deps, payload, message, willRetry, err),
  });
}

/** The job failed (a thrown error): back to queued for a retry, else failed with `onFinished` in one transaction. */
function onJobFailure(deps: ProcessDeps, payload: ProcessPayload, message: string, willRetry: boolean, err: unknown) {
  const id = payload.transaction_id;
  const now = isoAt(deps.clock);
  if (willRetry) tx.markRequeued(deps.db, id, now);
  else {
    deps.db
      .transaction(() => {
        tx.markFailed(deps.db, id, now, message, elapsedSeconds(deps, id));
        const stage = err instanceof DocprocError ? (err.stage ?? null) : null;
        deps.onFinished?.(deps.db, {
          transaction_id: id,
          status: "failed",
          error: message,
          failedStage: stage,
          run: payload.run ?? 0,
        });
      })
      .immediate();
  }
  deps.notifier.emit(id);
}

function elapsedSeconds(deps: ProcessDeps, id: string): number | null {
  const t = tx.getTransaction(deps.db, id);
  return t?.started_at ? Math.max(0, (deps.clock.now() - Date.parse(t.started_at)) / 1000) : null;
}

/** Load → run → store. */
async function processJob(payload: ProcessPayload, deps: ProcessDeps, helpers: JobHelpers): Promise<void> {
  const { db, clock } = deps;
  const id = payload.transaction_id;
  const run = payload.run ?? 0;
  const loaded = await loadRun(deps, payload, () => deps.notifier.emit(id));
  if (!loaded) return;
  const tracker = createProgressTracker();
  try {
    const t = loaded.transaction;
    const input = {
      sources: loaded.sources,
      documentText: t.document_text ?? undefined,
      ocrData: (t.ocr_data as never) ?? undefined,
      pageLimit: t.page_limit,
    };
    const out = await deps.runPipeline(input, runContext(deps, payload, loaded, helpers, tracker));
    await storeOutcome(deps, helpers, { id, run, out, seconds: secondsOf(loaded, clock.now()), tracker });
  } catch (err) {
    // An injected runner (tests) may pause by throwing; the core runner returns awaiting_input instead.
    if (!(err instanceof AwaitInput)) throw err;
    helpers.finish(() => tx.markAwaitingInput(db, id, isoAt(clock), err.review));
  } finally {
    deps.notifier.emit(id);
  }
}

/** What the runner is told: the transaction's metadata, where exports go, progress, cancellation and resumption. */
function runContext(
  deps: ProcessDeps,
  payload: ProcessPayload,
  loaded: LoadedRun,
  helpers: JobHelpers,
  tracker: ProgressTracker,
): RunContext {
  const { transaction: t, project, saved, fromStep } = loaded;
  const id = t.transaction_id;
  const run = payload.run ?? 0;
  return {
    meta: {
      transaction_id: id,
      tenant_id: t.tenant_id,
      project_id: t.project_id,
      project_version: project.project_version,
      correlation_id: t.correlation_id,
      metadata: clientMetadata(t.metadata),
      created_at: t.created_at,
      source: t.source,
      // A run resumed after a review carries the review's record into its results file and exports.
      ...(payload.resume
        ? { last_human_review: getReviewState(deps.db, id)?.results.transaction.last_human_review }
        : {}),
    },
    settings: project.settings,
    exportDir: loaded.exportDir,
    ...(deps.blobs.config.kind === "fs" ? {} : { storage: deps.blobs.config }),
    onProgress: progressWriter(deps, id, tracker),
    signal: helpers.signal,
    checkpoint: helpers.checkpoint,
    ...(saved ? { resume: { saved, fromStep } } : {}),
    ...(deps.onReached
      ? {
          notify: async (e) => void (e.event === "reached" && deps.onReached!(id, e.step.step_index, e.manifest, run)),
        }
      : {}),
  };
}

/** Writes progress at most every `progressEveryMs` per step (a new step is written at once). */
function progressWriter(deps: ProcessDeps, id: string, tracker: ProgressTracker) {
  let lastWrite = 0;
  let lastStep = "";
  return (step: string, done: number, total: number) => {
    const snap = tracker.update(step, done, total);
    const now = deps.clock.now();
    if (step === lastStep && now - lastWrite < (deps.progressEveryMs ?? 250)) return;
    lastStep = step;
    lastWrite = now;
    tx.setProgress(deps.db, id, snap.progress, snap.step_progress, isoAt(deps.clock));
  };
}
