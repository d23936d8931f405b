/**
 * Puts a transaction on the queue: created → queued plus a `process_transaction` job, in one SQLite transaction.
 * MUST refuse with `queue_full` (current_depth, max_depth) when the queue already holds `maxDepth` jobs.
 */
import { DocprocError } from "../core/errors";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import * as tx from "../storage/transactions/transactions";
import { enqueue, queueDepth } from "../storage/jobs/jobs";
import { PROCESS_TRANSACTION } from "./transaction-job";
import { queuedProgress } from "./progress";

export const DEFAULT_MAX_QUEUE_DEPTH = 1000;

export function assertQueueRoom(db: Db, maxDepth: number): void {
  const depth = queueDepth(db, PROCESS_TRANSACTION);
  if (depth >= maxDepth) {
    throw new DocprocError("queue_full", `The processing queue is full (${depth} of ${maxDepth} tasks); retry later`, {
      details: { current_depth: depth, max_depth: maxDepth },
    });
  }
}

/** Throws `conflict` ("Cannot start transaction in <state> state") outside `created`. */
export function submitTransaction(
  db: Db,
  clock: Clock,
  transactionId: string,
  opts: { maxDepth?: number; priority?: number } = {},
): void {
  db.transaction(() => {
    assertQueueRoom(db, opts.maxDepth ?? DEFAULT_MAX_QUEUE_DEPTH);
    const t = tx.getTransaction(db, transactionId);
    if (!t) throw new DocprocError("not_found", `Transaction ${transactionId} not found`);
    if (!tx.markQueued(db, transactionId, isoAt(clock), opts.priority)) {
      throw new DocprocError("conflict", `Cannot start transaction in ${t.status} state`);
    }
    const snap = queuedProgress();
    tx.setProgress(db, transactionId, snap.progress, snap.step_progress, isoAt(clock));
    enqueue(db, clock, {
      kind: PROCESS_TRANSACTION,
      payload: { transaction_id: transactionId },
      priority: opts.priority ?? t.priority,
      key: `process:${transactionId}`,
    });
  }).immediate();
}

/**
 * Resumes a transaction paused in `awaiting_input` (e.g. after a review): back to `queued` with a new job.
 * Throws `conflict` in any other state.
 */
export function enqueueResume(db: Db, clock: Clock, transactionId: string): void {
  db.transaction(() => {
    const t = tx.getTransaction(db, transactionId);
    if (!t) throw new DocprocError("not_found", `Transaction ${transactionId} not found`);
    if (!tx.markResumed(db, transactionId, isoAt(clock)))
      throw new DocprocError("conflict", `Cannot resume transaction in ${t.status} state`);
    enqueue(db, clock, {
      kind: PROCESS_TRANSACTION,
      payload: { transaction_id: transactionId, resume: true },
      priority: t.priority,
      key: `process:${transactionId}`,
    });
  }).immediate();
}

/**
 * Re-runs a finished transaction (completed or failed) from a workflow step, with its stored pages: back to
 * `queued`, timing and error cleared, and a job `{ from_step, run }`. Throws `conflict` in any other state. The
 * caller checks that run state is stored (storage/results/run-state.ts) and passes the next run number.
 */
export function rerunTransaction(
  db: Db,
  clock: Clock,
  transactionId: string,
  opts: { fromStep: string; run: number; maxDepth?: number },
): void {
  db.transaction(() => {
    assertQueueRoom(db, opts.maxDepth ?? DEFAULT_MAX_QUEUE_DEPTH);
    const t = tx.getTransaction(db, transactionId);
    if (!t) throw new DocprocError("not_found", `Transaction ${transactionId} not found`);
    const now = isoAt(clock);
    if (!tx.markRerun(db, transactionId, now))
      throw new DocprocError("conflict", `Cannot rerun transaction in ${t.status} state`);
    const snap = queuedProgress();
    tx.setProgress(db, transactionId, snap.progress, snap.step_progress, now);
    enqueue(db, clock, {
      kind: PROCESS_TRANSACTION,
      payload: { transaction_id: transactionId, from_step: opts.fromStep, run: opts.run },
      priority: t.priority,
      key: `process:${transactionId}`,
    });
  }).immediate();
}
