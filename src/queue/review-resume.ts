/**
 * The workflow after a review (docs/review.md): a reviewer finished, or the review's timeout acted.
 *
 * - `resumeWithReview`: the reviewed documents replace the paused run's documents in its stored state
 *   (storage/results/run-state.ts), and the transaction is resumed from the step after Review (export, later
 *   notifications) without converting or OCR-ing again. MUST only act on a transaction in `awaiting_input`.
 * - The `review_timeout` job (enqueued when a run pauses, due `timeout_hours` later) applies the node's
 *   `timeout_action`: `continue` resumes with what the review has so far; `fail` fails the transaction with a clear
 *   `error_message` (a `failed` notification fires). A timeout job of an earlier pause does nothing.
 */
import { DocprocError } from "../core/errors";
import type { ResultsFile } from "../core/model";
import { isoAt, type Clock } from "../core/clock";
import type { BlobStore } from "../storage/files/blobs";
import type { Db } from "../storage/schema/db";
import { getReviewState } from "../storage/results/review-states";
import { loadRunState, saveRunState } from "../storage/results/run-state";
import * as tx from "../storage/transactions/transactions";
import { enqueue } from "../storage/jobs/jobs";
import type { FinishedOutcome } from "./transaction-job";
import { enqueueResume } from "./submit";
import type { WorkerPool } from "./worker";

export const REVIEW_TIMEOUT = "review_timeout";

/** Puts the reviewed documents into the stored run state and resumes the paused run. */
export async function resumeWithReview(
  db: Db,
  clock: Clock,
  store: BlobStore,
  transactionId: string,
  results: ResultsFile,
): Promise<void> {
  const saved = await loadRunState(store, transactionId);
  if (!saved)
    throw new DocprocError("conflict", `transaction ${transactionId} has no stored run state to continue from`);
  await saveRunState(store, transactionId, {
    ...saved,
    documents: results.documents,
    transaction_rules: results.validation.transaction_rule_results,
  });
  enqueueResume(db, clock, transactionId);
}

/** Called where a run pauses: schedules the node's timeout action. */
export function scheduleReviewTimeout(
  db: Db,
  clock: Clock,
  transactionId: string,
  review: Record<string, unknown>,
): void {
  const hours = typeof review.timeout_hours === "number" ? review.timeout_hours : 0;
  if (!(hours > 0)) return;
  enqueue(db, clock, {
    kind: REVIEW_TIMEOUT,
    payload: { transaction_id: transactionId, paused_at: review.paused_at },
    runAt: clock.now() + hours * 3_600_000,
    key: `review-timeout:${transactionId}:${String(review.paused_at)}`,
  });
}

export interface ReviewTimeoutDeps {
  db: Db;
  clock: Clock;
  /** Where run state is stored (storage/results/run-state.ts). */
  blobs: BlobStore;
  wake(): void;
  emit(transactionId: string): void;
  onFinished?: (db: Db, outcome: FinishedOutcome) => void;
}

export function registerReviewTimeouts(pool: WorkerPool, deps: ReviewTimeoutDeps): void {
  pool.registerHandler(REVIEW_TIMEOUT, async (payload: { transaction_id: string; paused_at?: string }) => {
    const { db, clock } = deps;
    const t = tx.getTransaction(db, payload.transaction_id);
    // Finished, resumed, or paused again since: this timeout belongs to another pause.
    if (!t || t.status !== "awaiting_input" || t.review_metadata?.paused_at !== payload.paused_at) return;
    const meta = t.review_metadata ?? {};
    if (meta.timeout_action === "fail") {
      const message = `Review not finished within ${meta.timeout_hours} hours (${meta.step_name ?? "review"} step, timeout_action: fail)`;
      db.transaction(() => {
        tx.markFailed(
          db,
          t.transaction_id,
          isoAt(clock),
          message,
          t.started_at ? Math.max(0, (clock.now() - Date.parse(t.started_at)) / 1000) : null,
        );
        deps.onFinished?.(db, {
          transaction_id: t.transaction_id,
          status: "failed",
          error: message,
          failedStage: "review",
        });
      }).immediate();
    } else {
      const review = getReviewState(db, t.transaction_id);
      if (review) await resumeWithReview(db, clock, deps.blobs, t.transaction_id, review.results);
      else enqueueResume(db, clock, t.transaction_id);
      deps.wake();
    }
    deps.emit(t.transaction_id);
  });
}
