/**
 * One attempt of one claimed job, for the worker pool (worker.ts): the handler runs under a lease kept alive by
 * heartbeats and a time limit; its end is recorded (completed, failed, retried, released, lease_lost) in the job
 * table, the job lifecycle log and the job metrics.
 */
import { after, every, type Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import type { Db } from "../storage/schema/db";
import { complete, fail, heartbeat, leaseHeld, release, type JobRecord } from "../storage/jobs/jobs";
import { errorFields, type Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";
import { JobReleased, LeaseLostError, type HandlerOptions, type JobHandler, type JobHelpers } from "./job-handler";

/** A job being run, as the pool's stop() sees it. */
export interface InFlight {
  ctrl: AbortController;
  checkpoint: AbortController;
  token: string;
  kind: string;
  payload: unknown;
  done: Promise<void>;
}

/** What an attempt shares with its pool. */
export interface PoolState {
  db: Db;
  clock: Clock;
  workerId: string;
  leaseMs: number;
  heartbeatMs: number;
  backoffBaseMs?: number;
  handlers: Map<string, { handler: JobHandler; opts: HandlerOptions }>;
  inFlight: Map<number, InFlight>;
  /** True once stop() began. */
  stopping(): boolean;
  log: (msg: string) => void;
  telemetry?: { log?: Logger; metrics?: Metrics };
}

/** The transaction a job is about, for log lines (payloads carry ids only, never contents). */
export const transactionOf = (payload: unknown): string | undefined => {
  const id = (payload as { transaction_id?: unknown } | null)?.transaction_id;
  return typeof id === "string" ? id : undefined;
};

/** Webhook delivery jobs also count as delivery attempts (docproc_webhook_deliveries_total). */
const DELIVERY_KIND = "webhook_delivery";

/** One lifecycle line and metric per job outcome; `outcome` is completed, failed, retried, released or lease_lost. */
function record(
  pool: PoolState,
  job: JobRecord,
  outcome: string,
  startedAt: number,
  extra: Record<string, unknown> = {},
) {
  const { log: tlog, metrics } = pool.telemetry ?? {};
  const seconds = (performance.now() - startedAt) / 1000;
  metrics?.jobsFinished.inc({ kind: job.kind, outcome });
  if (job.kind === DELIVERY_KIND && outcome !== "released" && outcome !== "lease_lost") {
    metrics?.webhookDeliveries.inc({
      outcome: outcome === "completed" ? "delivered" : outcome === "retried" ? "retry" : "failed",
    });
  }
  if (!tlog) return;
  const level = outcome === "failed" ? "error" : outcome === "retried" || outcome === "lease_lost" ? "warn" : "info";
  const fields = {
    event: `job_${outcome}`,
    job_id: job.id,
    kind: job.kind,
    transaction_id: transactionOf(job.payload),
    attempt: job.attempts,
    duration_ms: Math.round(seconds * 1000),
    ...extra,
  };
  tlog[level](fields, `${job.kind} job ${job.id} ${outcome}`);
}

/**
 * Races the handler against its time limit (on the pool's clock); a handler still running afterwards can no longer
 * reject unhandled.
 */
async function withTimeout(
  run: Promise<void>,
  timeoutMs: number | undefined,
  ctrl: AbortController,
  job: JobRecord,
  clock: Clock,
): Promise<void> {
  if (!timeoutMs) return run;
  let cancel = () => {};
  const limit = new Promise<never>((_, reject) => {
    cancel = after(clock, timeoutMs, () => {
      const err = new DocprocError(
        "timeout",
        `job ${job.id} (${job.kind}) ran longer than ${Math.round(timeoutMs / 1000)} s`,
      );
      ctrl.abort(err);
      reject(err);
    });
  });
  run.catch(() => {});
  try {
    await Promise.race([run, limit]);
  } finally {
    cancel();
  }
}

/** Runs one claimed job to its end; never throws (every end is recorded). */
export async function runJob(pool: PoolState, job: JobRecord): Promise<void> {
  const { db, clock } = pool;
  const entry = pool.handlers.get(job.kind)!;
  const token = job.lease_token!;
  const ctrl = new AbortController();
  const checkpoint = new AbortController();
  if (pool.stopping()) checkpoint.abort();
  const stopBeating = every(clock, pool.heartbeatMs, () => {
    try {
      if (!heartbeat(db, clock, job.id, token, pool.leaseMs)) ctrl.abort(new LeaseLostError(job.id));
    } catch (err) {
      pool.log(`heartbeat failed for job ${job.id}: ${(err as Error).message}`);
    }
  });
  let finished = false;
  const startedAt = performance.now();
  pool.telemetry?.log?.info(
    {
      event: "job_started",
      job_id: job.id,
      kind: job.kind,
      transaction_id: transactionOf(job.payload),
      attempt: job.attempts,
      waited_ms: Math.max(0, clock.now() - job.run_at),
      worker_id: pool.workerId,
    },
    `${job.kind} job ${job.id} started`,
  );
  const helpers: JobHelpers = {
    job,
    signal: ctrl.signal,
    checkpoint: checkpoint.signal,
    clock,
    finish: (fn) =>
      db
        .transaction(() => {
          if (!leaseHeld(db, job.id, token)) throw new LeaseLostError(job.id);
          const out = fn();
          complete(db, clock, job.id, token);
          finished = true;
          return out;
        })
        .immediate(),
  };
  const done = (async () => {
    try {
      await withTimeout(entry.handler(job.payload, helpers), entry.opts.timeoutMs, ctrl, job, clock);
      if (!finished) complete(db, clock, job.id, token);
      record(pool, job, "completed", startedAt);
    } catch (err) {
      settleFailure(pool, job, { err, ctrl, token, startedAt, opts: entry.opts });
    } finally {
      stopBeating();
      pool.inFlight.delete(job.id);
    }
  })();
  pool.inFlight.set(job.id, { ctrl, checkpoint, token, kind: job.kind, payload: job.payload, done });
  await done;
}

/** An attempt that did not complete: lease lost, released (checkpoint or stop), or failed (retried or not). */
function settleFailure(
  pool: PoolState,
  job: JobRecord,
  a: { err: unknown; ctrl: AbortController; token: string; startedAt: number; opts: HandlerOptions },
): void {
  const { db, clock } = pool;
  const { err, ctrl, token, startedAt } = a;
  if (err instanceof LeaseLostError || ctrl.signal.reason instanceof LeaseLostError) {
    pool.log(`job ${job.id}: lease lost, leaving it to its new holder`);
    record(pool, job, "lease_lost", startedAt);
  } else if (err instanceof JobReleased) {
    if (release(db, clock, job.id, token)) a.opts.onRelease?.(job.payload);
    record(pool, job, "released", startedAt, { reason: "checkpoint", ...err.details });
  } else if (pool.stopping() && ctrl.signal.aborted) {
    if (release(db, clock, job.id, token)) a.opts.onRelease?.(job.payload);
    record(pool, job, "released", startedAt);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    const retryable = err instanceof DocprocError && err.retryable;
    const outcome = fail(db, clock, job, token, message, retryable, pool.backoffBaseMs);
    if (outcome) a.opts.onFailure?.(job.payload, message, outcome === "retry", err);
    // The structured line carries the code (and our own message); the plain log keeps the old text.
    if (pool.telemetry?.log) record(pool, job, outcome === "retry" ? "retried" : "failed", startedAt, errorFields(err));
    else {
      pool.telemetry?.metrics?.jobsFinished.inc({
        kind: job.kind,
        outcome: outcome === "retry" ? "retried" : "failed",
      });
      pool.log(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
    }
  }
}
