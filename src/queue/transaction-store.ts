/**
 * Store, the last third of the `process_transaction` job (process-transaction.ts): the run's outcome written back.
 * The run state goes to the blob store first (a checkpoint releases the job here); then, inside `helpers.finish`
 * (one database transaction, only while the job's lease is held), the results replace earlier rows and the
 * transaction takes its final status (or pauses in awaiting_input), with `onFinished` in the same transaction.
 */
import { isoAt, type Clock } from "../core/clock";
import type { SavedRun } from "../core/runner/types";
import type { BlobStore } from "../storage/files/blobs";
import type { Db } from "../storage/schema/db";
import { emptyManifest } from "../storage/files/export-files";
import { replaceResults } from "../storage/results/result-store";
import { savedRunText, type RunJson } from "../storage/results/run-json";
import { saveRunState, saveRunStateText } from "../storage/results/run-state";
import * as tx from "../storage/transactions/transactions";
import type { QueueRunOutcome } from "./pipeline-runner";
import type { ProgressTracker } from "./progress";
import { scheduleReviewTimeout } from "./review-resume";
import type { FinishedOutcome } from "./transaction-job";
import { JobReleased, type JobHelpers } from "./job-handler";

export interface StoreDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  onFinished?: (db: Db, outcome: FinishedOutcome) => void;
}

/** The run as this attempt ended it, and what the store needs besides. */
export interface AttemptEnd {
  id: string;
  run: number;
  out: QueueRunOutcome;
  /** processing_time_seconds at the end of the attempt. */
  seconds: number;
  tracker: ProgressTracker;
}

/**
 * Stores the outcome. An interrupted run stores its state and throws `JobReleased` (the job goes back to the queue
 * and the next attempt continues from that state).
 */
export async function storeOutcome(deps: StoreDeps, helpers: JobHelpers, end: AttemptEnd): Promise<void> {
  const { id, run, out, seconds } = end;
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
  helpers.finish(() => {
    if (out.status === "failure") storeFailure(deps, end);
    else if (out.status === "awaiting_input") storePause(deps, end);
    else storeCompletion(deps, end);
  });
}

function storeFailure(deps: StoreDeps, { id, run, out, seconds }: AttemptEnd): void {
  const error = out.errors.map((e) => e.message).join("; ") || "processing failed";
  tx.markFailed(deps.db, id, isoAt(deps.clock), error, seconds);
  deps.onFinished?.(deps.db, {
    transaction_id: id,
    status: "failed",
    error,
    failedStage: out.errors[0]?.stage ?? null,
    run,
  });
}

/** The review works on the results as they are now (pages with words); its timeout is a job due later. */
function storePause(deps: StoreDeps, { id, out }: AttemptEnd): void {
  const { db, clock } = deps;
  const review = {
    ...(out.review_metadata ?? { step_name: "review", instructions: "", timeout_hours: 0 }),
    paused_at: isoAt(clock),
  };
  replaceResults(db, id, {
    documents: out.documents,
    pages: out.pages,
    manifest: out.manifest ?? emptyManifest(id),
    ...reviewStateOf(out, clock),
  });
  tx.markAwaitingInput(db, id, isoAt(clock), review);
  scheduleReviewTimeout(db, clock, id, review);
}

function storeCompletion(deps: StoreDeps, { id, run, out, seconds, tracker }: AttemptEnd): void {
  const { db, clock } = deps;
  const snap = tracker.finish(out.documents.length);
  const stepProgress = out.errors.length ? { ...snap.step_progress, errors: out.errors } : snap.step_progress;
  const manifest = out.manifest ?? emptyManifest(id);
  replaceResults(db, id, { documents: out.documents, pages: out.pages, manifest, ...reviewStateOf(out, clock) });
  tx.setProgress(db, id, snap.progress, stepProgress, isoAt(clock));
  tx.markCompleted(db, id, isoAt(clock), seconds);
  deps.onFinished?.(db, { transaction_id: id, status: "completed", manifest, run });
}

/** The full results kept for review (docs/review.md), as JSON text when the runner made it so. */
function reviewStateOf(out: QueueRunOutcome, clock: Clock) {
  const review = out.json
    ? { text: out.json, now: isoAt(clock) }
    : out.results
      ? { results: out.results, now: isoAt(clock) }
      : undefined;
  return review ? { review } : {};
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
