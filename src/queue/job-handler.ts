/**
 * What a job kind plugs into the worker pool (worker.ts): the handler signature, its helpers, its options, and the
 * two ways an attempt ends other than success or failure (a lost lease, a release at a checkpoint).
 */
import type { Clock } from "../core/clock";
import type { JobRecord } from "../storage/jobs/jobs";

export interface JobHelpers {
  job: JobRecord;
  signal: AbortSignal;
  /** Fires when the pool stops gracefully: a long job SHOULD checkpoint and throw `JobReleased`. */
  checkpoint: AbortSignal;
  clock: Clock;
  /** Runs fn and completes the job atomically, only if the lease is still ours; throws `LeaseLostError` otherwise. */
  finish<T>(fn: () => T): T;
}

export type JobHandler = (payload: any, helpers: JobHelpers) => Promise<void>;

export interface HandlerOptions {
  /**
   * Longest a job may run. Past it the job's signal aborts and the attempt fails with a non-retryable `timeout`,
   * even if the handler ignores the signal (its late writes are then refused: the lease is gone).
   */
  timeoutMs?: number;
  /** Called after a failed attempt (willRetry tells whether the job goes back to the queue). */
  onFailure?(payload: any, message: string, willRetry: boolean, err?: unknown): void;
  /** Called after a running job was handed back to the queue on shutdown (not counted as an attempt). */
  onRelease?(payload: any): void;
}

export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`lease on job ${jobId} was lost`);
    this.name = "LeaseLostError";
  }
}

/** Thrown by a handler that stored its progress at a checkpoint: the job is released, to continue later. */
export class JobReleased extends Error {
  /** `details` go into the job_released log line (ids, counts and step names only). */
  constructor(readonly details: Record<string, unknown> = {}) {
    super("stopped at a checkpoint");
    this.name = "JobReleased";
  }
}
