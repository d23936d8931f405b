/**
 * The worker pool: claims jobs, runs their kind's handler under a lease kept alive by heartbeats, and records the
 * outcome. A handler is `(payload, helpers) => Promise<void>`; kinds are registered, so webhook deliveries and other
 * jobs plug in beside `process_transaction`.
 *
 * Contract for handlers:
 * - MUST write their final state through `helpers.finish(fn)`: fn runs in one SQLite transaction only while the lease
 *   is still held, and the job is completed in that same transaction (no lost or doubled results after a crash).
 * - SHOULD honour `helpers.signal` (aborted when the lease is lost or on a non-graceful stop).
 * - MAY honour `helpers.checkpoint` (fired by a graceful stop): store what is done, then throw `JobReleased`; the job
 *   goes back to the queue without counting an attempt and the next attempt continues from what was stored.
 * - Throw a retryable DocprocError to be retried with backoff; anything else fails the job.
 */
import { randomUUID } from "node:crypto";
import { DocprocError } from "../core/errors";
import { after, every, type Clock } from "../core/clock";
import type { Db } from "../storage/db";
import { hostname } from "node:os";
import { claim, lostWorkersMessage } from "../storage/job-claim";
import {
  complete,
  expireDeadLocalLeases,
  fail,
  heartbeat,
  leaseHeld,
  pruneFinishedJobs,
  release,
  type JobRecord,
} from "../storage/jobs";
import { pidAlive } from "./pid";
import { errorFields, type Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";

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

export interface WorkerOptions {
  db: Db;
  /** Lease times, and the timers of heartbeats, polls, job time limits and pruning (a fake clock drives them in tests). */
  clock: Clock;
  concurrency?: number;
  leaseMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  backoffBaseMs?: number;
  /** Finished jobs older than this are deleted (at start, then hourly). Default 7 days. */
  keepFinishedMs?: number;
  workerId?: string;
  log?: (msg: string) => void;
  /** Job lifecycle log lines and job metrics (docs/operations.md); default: none. */
  telemetry?: { log?: Logger; metrics?: Metrics };
}

/** The transaction a job is about, for log lines (payloads carry ids only, never contents). */
const transactionOf = (payload: unknown): string | undefined => {
  const id = (payload as { transaction_id?: unknown } | null)?.transaction_id;
  return typeof id === "string" ? id : undefined;
};

/** Webhook delivery jobs also count as delivery attempts (docproc_webhook_deliveries_total). */
const DELIVERY_KIND = "webhook_delivery";

export interface WorkerPool {
  registerHandler(kind: string, handler: JobHandler, opts?: HandlerOptions): void;
  start(): void;
  /** Wakes idle loops at once (after an enqueue in this process). */
  wake(): void;
  /** Claims and runs at most one job; for tests that drive time by hand. Returns the job run, if any. */
  runOnce(): Promise<JobRecord | null>;
  /** graceful: ask running jobs to checkpoint (helpers.checkpoint) and wait for them; otherwise abort them and release their leases. */
  stop(opts?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
  running(): number;
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

export function createWorkerPool(opts: WorkerOptions): WorkerPool {
  const { db, clock } = opts;
  const leaseMs = opts.leaseMs ?? 30_000;
  const heartbeatMs = opts.heartbeatMs ?? Math.max(50, Math.floor(leaseMs / 3));
  const pollMs = opts.pollMs ?? 500;
  // <host>:<pid>:<suffix>: lets a restarted process on this host free the leases of a crashed one at once.
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = opts.log ?? (() => {});
  const tlog = opts.telemetry?.log;
  const metrics = opts.telemetry?.metrics;
  /** One lifecycle line and metric per job outcome; `outcome` is completed, failed, retried, released or lease_lost. */
  const record = (job: JobRecord, outcome: string, startedAt: number, extra: Record<string, unknown> = {}) => {
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
  };
  const handlers = new Map<string, { handler: JobHandler; opts: HandlerOptions }>();
  const inFlight = new Map<
    number,
    {
      ctrl: AbortController;
      checkpoint: AbortController;
      token: string;
      kind: string;
      payload: unknown;
      done: Promise<void>;
    }
  >();
  let stopping = false;
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  let stopPruning: (() => void) | null = null;
  const prune = () => {
    try {
      pruneFinishedJobs(db, clock.now() - (opts.keepFinishedMs ?? 7 * 86_400_000));
    } catch (err) {
      log(`pruning finished jobs failed: ${(err as Error).message}`);
    }
  };

  async function runJob(job: JobRecord): Promise<void> {
    const entry = handlers.get(job.kind)!;
    const token = job.lease_token!;
    const ctrl = new AbortController();
    const checkpoint = new AbortController();
    if (stopping) checkpoint.abort();
    const stopBeating = every(clock, heartbeatMs, () => {
      try {
        if (!heartbeat(db, clock, job.id, token, leaseMs)) ctrl.abort(new LeaseLostError(job.id));
      } catch (err) {
        log(`heartbeat failed for job ${job.id}: ${(err as Error).message}`);
      }
    });
    let finished = false;
    const startedAt = performance.now();
    tlog?.info(
      {
        event: "job_started",
        job_id: job.id,
        kind: job.kind,
        transaction_id: transactionOf(job.payload),
        attempt: job.attempts,
        waited_ms: Math.max(0, clock.now() - job.run_at),
        worker_id: workerId,
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
        record(job, "completed", startedAt);
      } catch (err) {
        if (err instanceof LeaseLostError || ctrl.signal.reason instanceof LeaseLostError) {
          log(`job ${job.id}: lease lost, leaving it to its new holder`);
          record(job, "lease_lost", startedAt);
        } else if (err instanceof JobReleased) {
          if (release(db, clock, job.id, token)) entry.opts.onRelease?.(job.payload);
          record(job, "released", startedAt, { reason: "checkpoint", ...err.details });
        } else if (stopping && ctrl.signal.aborted) {
          if (release(db, clock, job.id, token)) entry.opts.onRelease?.(job.payload);
          record(job, "released", startedAt);
        } else {
          const message = err instanceof Error ? err.message : String(err);
          const retryable = err instanceof DocprocError && err.retryable;
          const outcome = fail(db, clock, job, token, message, retryable, opts.backoffBaseMs);
          if (outcome) entry.opts.onFailure?.(job.payload, message, outcome === "retry", err);
          // The structured line carries the code (and our own message); the plain log keeps the old text.
          if (tlog) record(job, outcome === "retry" ? "retried" : "failed", startedAt, errorFields(err));
          else {
            metrics?.jobsFinished.inc({ kind: job.kind, outcome: outcome === "retry" ? "retried" : "failed" });
            log(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
          }
        }
      } finally {
        stopBeating();
        inFlight.delete(job.id);
      }
    })();
    inFlight.set(job.id, { ctrl, checkpoint, token, kind: job.kind, payload: job.payload, done });
    await done;
  }

  function claimOne(): JobRecord | null {
    const { job, exhausted } = claim(db, clock, { workerId, leaseMs, kinds: [...handlers.keys()] });
    for (const j of exhausted) handlers.get(j.kind)?.opts.onFailure?.(j.payload, lostWorkersMessage(j), false);
    return job;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let job: JobRecord | null = null;
      try {
        job = claimOne();
      } catch (err) {
        log(`claim failed: ${(err as Error).message}`);
      }
      if (job) {
        await runJob(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        let cancel = () => {};
        const waker = () => {
          cancel();
          wakers.delete(waker);
          resolve();
        };
        wakers.add(waker);
        cancel = after(clock, pollMs, waker);
      });
    }
  }

  return {
    registerHandler(kind, handler, hopts = {}) {
      handlers.set(kind, { handler, opts: hopts });
    },
    start() {
      stopping = false;
      try {
        const freed = expireDeadLocalLeases(db, clock, hostname(), pidAlive);
        if (freed) log(`recovered ${freed} job(s) of a worker process that is gone`);
      } catch (err) {
        log(`lease recovery failed: ${(err as Error).message}`);
      }
      prune();
      stopPruning = every(clock, 3_600_000, prune, { unref: true });
      for (let i = 0; i < (opts.concurrency ?? 1); i++) loops.push(loop());
    },
    wake() {
      // One idle loop is enough to start the new job at once; the others find work at their next poll.
      const first = wakers.values().next();
      if (!first.done) first.value();
    },
    async runOnce() {
      const job = claimOne();
      if (job) await runJob(job);
      return job;
    },
    async stop(sopts = {}) {
      stopping = true;
      stopPruning?.();
      stopPruning = null;
      for (const w of [...wakers]) w();
      // Graceful: jobs that can stop at a checkpoint do so (storing their progress); the others run to the end.
      for (const f of inFlight.values())
        sopts.graceful ? f.checkpoint.abort() : f.ctrl.abort(new Error("worker stopping"));
      const all = Promise.all([...inFlight.values()].map((f) => f.done));
      // The shutdown grace period is wall time on purpose: a process must exit on time whatever clock it was given.
      const limit = sopts.timeoutMs ?? 30_000;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([all, new Promise((r) => (timer = setTimeout(r, limit)))]);
      clearTimeout(timer);
      // Whatever still runs after the timeout is released so another worker can take it at once. Its loop stays
      // stuck in the handler, so it is not awaited (its late writes are refused: the lease is gone).
      const stuck = inFlight.size > 0;
      for (const [id, f] of inFlight) {
        f.ctrl.abort(new Error("worker stopping"));
        if (release(db, clock, id, f.token)) {
          handlers.get(f.kind)?.opts.onRelease?.(f.payload);
          tlog?.warn(
            {
              event: "job_released",
              job_id: id,
              kind: f.kind,
              transaction_id: transactionOf(f.payload),
              reason: "shutdown timeout",
            },
            `${f.kind} job ${id} released at shutdown`,
          );
        }
      }
      if (!stuck) await Promise.allSettled(loops);
      loops.length = 0;
    },
    running: () => inFlight.size,
  };
}
