/**
 * The `process_transaction` job: loads a transaction's inputs, runs the pipeline, and stores its output.
 *
 * MUST be safe to run again after a crash: export files of an earlier attempt are wiped first, and results replace
 * (never add to) earlier rows inside `helpers.finish`, under the job's lease.
 *
 * The job's payload says where the run starts: `{ transaction_id }` from the start; `{ resume: true }` where a
 * paused run stopped; `{ from_step, run }` a rerun from that workflow step. The last two read the run state stored
 * (storage/run-state.ts) when the transaction paused or finished, so nothing is converted or OCR'd again.
 * A step MAY pause the transaction in `awaiting_input` by throwing `AwaitInput` (core/runner): its state is stored
 * and `resumeProcessing` (src/queue/resume.ts) continues it.
 */
import type { SavedRun, StageName } from "../core/runner/types";
import { loadRunState, saveRunState, saveRunStateText } from "../storage/run-state";
import { savedRunText, type RunJson } from "../storage/run-json";
import { getReviewState } from "../storage/review-states";
import { scheduleReviewTimeout } from "./review-resume";
import { rm } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../core/errors";
import type { SourceInput } from "../core/model";
import type { BlobStore } from "../storage/blobs";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/db";
import { emptyManifest, type StoredManifest } from "../storage/export-files";
import { exportsKeyOf } from "../storage/store-sink";
import { getProjectById } from "../storage/projects";
import { replaceResults } from "../storage/result-store";
import { listSourceFiles } from "../storage/source-files";
import { passwordsOf } from "../storage/source-file-passwords";
import * as tx from "../storage/transactions";
import type { Notifier } from "./notifier";
import type { PipelineRunner } from "./pipeline-runner";
import { createProgressTracker } from "./progress";
import { JobReleased, type JobHelpers, type WorkerPool } from "./worker";

import { PROCESS_TRANSACTION, type FinishedOutcome } from "./transaction-job";

import { AwaitInput } from "../core/runner/types";
export { AwaitInput };

/** Where a `process_transaction` job starts (see the module contract). */
export interface ProcessPayload {
  transaction_id: string;
  resume?: boolean;
  from_step?: StageName;
  /** Rerun number (delivery ids stay unique per run); 0 or absent for the first run. */
  run?: number;
}

export interface ProcessDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  notifier: Notifier;
  runPipeline: PipelineRunner;
  /**
   * Export files go to `<exportsRoot>/<transaction_id>/` when the store is the data directory, else into the store
   * (`exports/<transaction_id>/`); run state always goes to the store (storage/run-state.ts).
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

/** A transaction's source files as the pipeline takes them: bytes from the blob store, passwords while kept. */
export async function storedSources(db: Db, blobs: BlobStore, transactionId: string): Promise<SourceInput[]> {
  const passwords = passwordsOf(db, transactionId);
  return Promise.all(
    listSourceFiles(db, transactionId).map(async (f) => ({
      index: f.file_index,
      filename: f.filename,
      content_type: f.content_type,
      data: await blobs.get(f.blob_hash),
      split_policy: f.split_policy,
      ...(passwords.has(f.file_index) ? { password: passwords.get(f.file_index) } : {}),
    })),
  );
}

export function exportDirOf(exportsRoot: string, transactionId: string): string {
  return path.join(exportsRoot, transactionId);
}

/** Deletes a transaction's export files (before a run that starts clean, or a re-export). */
export async function clearExports(blobs: BlobStore, exportsRoot: string, transactionId: string): Promise<void> {
  if (blobs.config.kind === "fs") await rm(exportDirOf(exportsRoot, transactionId), { recursive: true, force: true });
  else await blobs.removeAll(exportsKeyOf(transactionId));
}

export function registerProcessTransaction(pool: WorkerPool, deps: ProcessDeps): void {
  pool.registerHandler(PROCESS_TRANSACTION, (payload: ProcessPayload, helpers) => processJob(payload, deps, helpers), {
    timeoutMs: deps.jobTimeoutMs ?? 30 * 60_000,
    onRelease(payload: { transaction_id: string }) {
      tx.markRequeued(deps.db, payload.transaction_id, isoAt(deps.clock));
      deps.notifier.emit(payload.transaction_id);
    },
    onFailure(payload: ProcessPayload, message, willRetry, err) {
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
    },
  });
}

function elapsedSeconds(deps: ProcessDeps, id: string): number | null {
  const t = tx.getTransaction(deps.db, id);
  return t?.started_at ? Math.max(0, (deps.clock.now() - Date.parse(t.started_at)) / 1000) : null;
}

async function processJob(payload: ProcessPayload, deps: ProcessDeps, helpers: JobHelpers): Promise<void> {
  const { db, clock } = deps;
  const id = payload.transaction_id;
  const run = payload.run ?? 0;
  const t = tx.getTransaction(db, id);
  // Already finished (a duplicate job, or a crash after the commit): nothing to do.
  if (!t || (t.status !== "queued" && t.status !== "processing")) return;
  const project = getProjectById(db, t.project_id);
  if (!project) throw new DocprocError("not_found", `project ${t.project_id} no longer exists`);
  tx.markProcessing(db, id, isoAt(clock), project.project_version);
  deps.notifier.emit(id);

  const attemptStart = clock.now();
  const sources = await storedSources(db, deps.blobs, id);
  const continuing = payload.resume || payload.from_step !== undefined;
  const stored = await loadRunState(deps.blobs, id);
  // An attempt stopped at a checkpoint (graceful shutdown) is continued whatever the payload says: its state is
  // newer than the one the payload meant (a rerun's checkpoint already holds the rerun's progress).
  const checkpoint = stored?.checkpoint ? stored : null;
  const saved = checkpoint ?? (continuing ? stored : null);
  const fromStep = checkpoint ? undefined : payload.from_step;
  // A rerun needs stored pages; a resume without stored state (a run by an injected test runner) starts over.
  if (payload.from_step !== undefined && !saved)
    throw new DocprocError("conflict", `transaction ${id} has no stored run state to re-run from`);
  const exportDir = exportDirOf(deps.exportsRoot, id);
  // A resumed run keeps what earlier steps exported (the manifest refers to it); any other run starts clean.
  if (!((payload.resume || checkpoint) && saved)) await clearExports(deps.blobs, deps.exportsRoot, id);
  // Time processed before this attempt, when it continues a stored state that counted it (a checkpoint, a review
  // pause): processing_time_seconds then adds this attempt only, never the time the transaction stood still.
  const before = fromStep === undefined ? (saved?.processing_seconds ?? null) : null;

  const tracker = createProgressTracker();
  let lastWrite = 0;
  let lastStep = "";
  const onProgress = (step: string, done: number, total: number) => {
    const snap = tracker.update(step, done, total);
    const now = clock.now();
    if (step === lastStep && now - lastWrite < (deps.progressEveryMs ?? 250)) return;
    lastStep = step;
    lastWrite = now;
    tx.setProgress(db, id, snap.progress, snap.step_progress, isoAt(clock));
  };

  const startedAt = Date.parse(tx.getTransaction(db, id)!.started_at ?? isoAt(clock));
  try {
    const out = await deps.runPipeline(
      {
        sources,
        documentText: t.document_text ?? undefined,
        ocrData: (t.ocr_data as never) ?? undefined,
        pageLimit: t.page_limit,
      },
      {
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
            ? { last_human_review: getReviewState(db, id)?.results.transaction.last_human_review }
            : {}),
        },
        settings: project.settings,
        exportDir,
        ...(deps.blobs.config.kind === "fs" ? {} : { storage: deps.blobs.config }),
        onProgress,
        signal: helpers.signal,
        checkpoint: helpers.checkpoint,
        ...(saved ? { resume: { saved, fromStep } } : {}),
        ...(deps.onReached
          ? {
              notify: async (e) =>
                void (e.event === "reached" && deps.onReached!(id, e.step.step_index, e.manifest, run)),
            }
          : {}),
      },
    );
    const seconds =
      before !== null
        ? before + Math.max(0, (clock.now() - attemptStart) / 1000)
        : Math.max(0, (clock.now() - startedAt) / 1000);
    const state = out.json ? out.json.saved : (out.saved ?? null);
    if (out.status === "interrupted" && state) {
      // Converted and read pages are stored; the job goes back to the queue and the next attempt continues here.
      await storeRunState(deps.blobs, id, state, { run, checkpoint: true, processing_seconds: seconds });
      const next = "head" in state ? state.head.next : state.next;
      throw new JobReleased({
        next,
        pages: out.pages.length,
        pages_read: out.pages.filter((p) => p.text_source !== "none").length,
      });
    }
    if (state) await storeRunState(deps.blobs, id, state, { run, processing_seconds: seconds });
    const reviewState = out.json
      ? { text: out.json, now: isoAt(clock) }
      : out.results
        ? { results: out.results, now: isoAt(clock) }
        : undefined;
    const snap = tracker.finish(out.documents.length);
    const stepProgress = out.errors.length ? { ...snap.step_progress, errors: out.errors } : snap.step_progress;
    helpers.finish(() => {
      if (out.status === "failure") {
        const error = out.errors.map((e) => e.message).join("; ") || "processing failed";
        tx.markFailed(db, id, isoAt(clock), error, seconds);
        deps.onFinished?.(db, {
          transaction_id: id,
          status: "failed",
          error,
          failedStage: out.errors[0]?.stage ?? null,
          run,
        });
        return;
      }
      if (out.status === "awaiting_input") {
        // The review works on the results as they are now (pages with words); its timeout is a job due later.
        const review = {
          ...(out.review_metadata ?? { step_name: "review", instructions: "", timeout_hours: 0 }),
          paused_at: isoAt(clock),
        };
        replaceResults(db, id, {
          documents: out.documents,
          pages: out.pages,
          manifest: out.manifest ?? emptyManifest(id),
          ...(reviewState ? { review: reviewState } : {}),
        });
        tx.markAwaitingInput(db, id, isoAt(clock), review);
        scheduleReviewTimeout(db, clock, id, review);
        return;
      }
      const manifest = out.manifest ?? emptyManifest(id);
      replaceResults(db, id, {
        documents: out.documents,
        pages: out.pages,
        manifest,
        ...(reviewState ? { review: reviewState } : {}),
      });
      tx.setProgress(db, id, snap.progress, stepProgress, isoAt(clock));
      tx.markCompleted(db, id, isoAt(clock), seconds);
      deps.onFinished?.(db, { transaction_id: id, status: "completed", manifest, run });
    });
  } catch (err) {
    // An injected runner (tests) may pause by throwing; the core runner returns awaiting_input instead.
    if (!(err instanceof AwaitInput)) throw err;
    helpers.finish(() => tx.markAwaitingInput(db, id, isoAt(clock), err.review));
  } finally {
    deps.notifier.emit(id);
  }
}

/** Stores the run state with the members the queue sets (`patch`), from the object or its prepared JSON text. */
async function storeRunState(
  blobs: BlobStore,
  id: string,
  saved: SavedRun | NonNullable<RunJson["saved"]>,
  patch: Partial<SavedRun>,
): Promise<void> {
  if ("head" in saved) await saveRunStateText(blobs, id, savedRunText(saved, patch));
  else await saveRunState(blobs, id, { ...saved, ...patch });
}

/** The client's own metadata, without the keys the service adds. */
export function clientMetadata(m: Record<string, unknown>): Record<string, unknown> {
  const { progress: _p, step_progress: _s, ...rest } = m;
  return rest;
}
