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
import { hostname } from "node:os";
import { after, every, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { claim, lostWorkersMessage } from "../storage/jobs/job-claim";
import { expireDeadLocalLeases, pruneFinishedJobs, release, type JobRecord } from "../storage/jobs/jobs";
import type { Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";
import { runJob, transactionOf, type PoolState } from "./job-attempt";
import type { HandlerOptions, JobHandler } from "./job-handler";
import { pidAlive } from "./pid";

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

export function createWorkerPool(opts: WorkerOptions): WorkerPool {
  const { db, clock } = opts;
  const leaseMs = opts.leaseMs ?? 30_000;
  let stopping = false;
  const pool: PoolState = {
    db,
    clock,
    // <host>:<pid>:<suffix>: lets a restarted process on this host free the leases of a crashed one at once.
    workerId: opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseMs,
    heartbeatMs: opts.heartbeatMs ?? Math.max(50, Math.floor(leaseMs / 3)),
    backoffBaseMs: opts.backoffBaseMs,
    handlers: new Map(),
    inFlight: new Map(),
    stopping: () => stopping,
    log: opts.log ?? (() => {}),
    telemetry: opts.telemetry,
  };
  const pollMs = opts.pollMs ?? 500;
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  let stopPruning: (() => void) | null = null;
  const prune = () => pruneOld(pool, opts.keepFinishedMs ?? 7 * 86_400_000);

  function claimOne(): JobRecord | null {
    const { job, exhausted } = claim(db, clock, { workerId: pool.workerId, leaseMs, kinds: [...pool.handlers.keys()] });
    for (const j of exhausted) pool.handlers.get(j.kind)?.opts.onFailure?.(j.payload, lostWorkersMessage(j), false);
    return job;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let job: JobRecord | null = null;
      try {
        job = claimOne();
      } catch (err) {
        pool.log(`claim failed: ${(err as Error).message}`);
      }
      if (job) await runJob(pool, job);
      else await idle(clock, pollMs, wakers);
    }
  }

  return {
    registerHandler(kind, handler, hopts = {}) {
      pool.handlers.set(kind, { handler, opts: hopts });
    },
    start() {
      stopping = false;
      recoverLocalLeases(pool);
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
      if (job) await runJob(pool, job);
      return job;
    },
    async stop(sopts = {}) {
      stopping = true;
      stopPruning?.();
      stopPruning = null;
      for (const w of [...wakers]) w();
      await stopInFlight(pool, loops, sopts);
      loops.length = 0;
    },
    running: () => pool.inFlight.size,
  };
}

/** Deletes finished jobs older than `keepMs`; a failure is logged, never thrown (housekeeping). */
function pruneOld(pool: PoolState, keepMs: number): void {
  try {
    pruneFinishedJobs(pool.db, pool.clock.now() - keepMs);
  } catch (err) {
    pool.log(`pruning finished jobs failed: ${(err as Error).message}`);
  }
}

/** Waits until the next poll or a wake(), whichever comes first. */
function idle(clock: Clock, pollMs: number, wakers: Set<() => void>): Promise<void> {
  return new Promise<void>((resolve) => {
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

/** At start: frees the leases of this host's worker processes that are gone (a crash or SIGKILL). */
function recoverLocalLeases(pool: PoolState): void {
  try {
    const freed = expireDeadLocalLeases(pool.db, pool.clock, hostname(), pidAlive);
    if (freed) pool.log(`recovered ${freed} job(s) of a worker process that is gone`);
  } catch (err) {
    pool.log(`lease recovery failed: ${(err as Error).message}`);
  }
}

/**
 * Graceful: jobs that can stop at a checkpoint do so (storing their progress); the others run to the end. Otherwise
 * they are aborted. Whatever still runs after the time limit is released so another worker can take it at once.
 */
async function stopInFlight(
  pool: PoolState,
  loops: Promise<void>[],
  sopts: { graceful?: boolean; timeoutMs?: number },
): Promise<void> {
  for (const f of pool.inFlight.values())
    sopts.graceful ? f.checkpoint.abort() : f.ctrl.abort(new Error("worker stopping"));
  const all = Promise.all([...pool.inFlight.values()].map((f) => f.done));
  // The shutdown grace period is wall time on purpose: a process must exit on time whatever clock it was given.
  const limit = sopts.timeoutMs ?? 30_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([all, new Promise((r) => (timer = setTimeout(r, limit)))]);
  clearTimeout(timer);
  // A loop still stuck in its handler is not awaited (its late writes are refused: the lease is gone).
  const stuck = pool.inFlight.size > 0;
  for (const [id, f] of pool.inFlight) {
    f.ctrl.abort(new Error("worker stopping"));
    if (release(pool.db, pool.clock, id, f.token)) {
      pool.handlers.get(f.kind)?.opts.onRelease?.(f.payload);
      pool.telemetry?.log?.warn(
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
}
