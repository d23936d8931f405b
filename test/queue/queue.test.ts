import { afterEach, describe, expect, test } from "bun:test";
import path from "node:path";
import { DocprocError } from "../../src/core/errors";
import { MAX_LOST_LEASES, claim } from "../../src/storage/jobs/job-claim";
import {
  complete,
  enqueue,
  expireDeadLocalLeases,
  fail,
  getJob,
  heartbeat,
  pruneFinishedJobs,
  queueDepth,
} from "../../src/storage/jobs/jobs";
import { pidAlive } from "../../src/queue/pid";
import { createNotifier } from "../../src/queue/notifier";
import type { PipelineRunner } from "../../src/queue/pipeline-runner";
import { AwaitInput, registerProcessTransaction } from "../../src/queue/process-transaction";
import { enqueueResume, submitTransaction } from "../../src/queue/submit";
import { LeaseLostError } from "../../src/queue/job-handler";
import { createWorkerPool } from "../../src/queue/worker";
import { fsBlobStore } from "../../src/storage/files/blobs";
import { fakeClock } from "../../src/core/clock";
import { listDocuments } from "../../src/storage/transactions/documents";
import { createProject } from "../../src/storage/projects/projects";
import { addSourceFile } from "../../src/storage/files/source-files";
import * as tx from "../../src/storage/transactions/transactions";
import { freshDb } from "../storage/helpers";
import { loadRunState } from "../../src/storage/results/run-state";
import { wholeBytes } from "../../src/core/source-data";

let env: ReturnType<typeof freshDb>;
afterEach(() => env?.cleanup());
const opts = { workerId: "w1", leaseMs: 10_000, kinds: ["k"] };

describe("jobs", () => {
  test("claims the highest priority first, then the oldest", () => {
    env = freshDb();
    const clock = fakeClock();
    const low = enqueue(env.db, clock, { kind: "k", payload: { n: 1 } });
    clock.advance(1);
    const high = enqueue(env.db, clock, { kind: "k", payload: { n: 2 }, priority: 5 });
    expect(claim(env.db, clock, opts).job!.id).toBe(high.id);
    expect(claim(env.db, clock, opts).job!.id).toBe(low.id);
    expect(claim(env.db, clock, opts).job).toBeNull();
  });

  test("a job is not claimed before run_at", () => {
    env = freshDb();
    const clock = fakeClock();
    enqueue(env.db, clock, { kind: "k", payload: {}, runAt: clock.now() + 5000 });
    expect(claim(env.db, clock, opts).job).toBeNull();
    clock.advance(5000);
    expect(claim(env.db, clock, opts).job).not.toBeNull();
  });

  test("an expired lease is recovered by another worker and the old holder can no longer finish", () => {
    env = freshDb();
    const clock = fakeClock();
    enqueue(env.db, clock, { kind: "k", payload: {} });
    const first = claim(env.db, clock, opts).job!;
    clock.advance(5_000);
    expect(heartbeat(env.db, clock, first.id, first.lease_token!, 10_000)).toBe(true);
    clock.advance(9_000);
    expect(claim(env.db, clock, { ...opts, workerId: "w2" }).job).toBeNull(); // heartbeat kept it alive
    clock.advance(2_000);
    const second = claim(env.db, clock, { ...opts, workerId: "w2" }).job!;
    expect(second.id).toBe(first.id);
    expect(second.attempts).toBe(2);
    expect(complete(env.db, clock, first.id, first.lease_token!)).toBe(false);
    expect(heartbeat(env.db, clock, first.id, first.lease_token!, 10_000)).toBe(false);
    expect(complete(env.db, clock, second.id, second.lease_token!)).toBe(true);
  });

  test("leases of a dead process on this host are freed at once; live or foreign holders keep theirs", () => {
    env = freshDb();
    const clock = fakeClock();
    for (const holder of ["h1:111:a", "h1:222:b", "h2:111:c"]) {
      enqueue(env.db, clock, { kind: "k", payload: {} });
      claim(env.db, clock, { workerId: holder, leaseMs: 60_000, kinds: ["k"] });
    }
    expect(expireDeadLocalLeases(env.db, clock, "h1", (pid) => pid === 222)).toBe(1);
    const next = claim(env.db, clock, { workerId: "h1:333:d", leaseMs: 60_000, kinds: ["k"] }).job!;
    expect(next.attempts).toBe(2);
    expect(claim(env.db, clock, { workerId: "h1:333:d", leaseMs: 60_000, kinds: ["k"] }).job).toBeNull();
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(2 ** 22 + 12345)).toBe(false);
  });

  test("retryable errors come back after an exponential backoff, then fail with last_error", () => {
    env = freshDb();
    const clock = fakeClock();
    enqueue(env.db, clock, { kind: "k", payload: {}, maxAttempts: 2 });
    const a1 = claim(env.db, clock, opts).job!;
    expect(fail(env.db, clock, a1, a1.lease_token!, "flaky", true)).toBe("retry");
    expect(claim(env.db, clock, opts).job).toBeNull();
    clock.advance(1000);
    const a2 = claim(env.db, clock, opts).job!;
    expect(fail(env.db, clock, a2, a2.lease_token!, "flaky again", true)).toBe("failed");
    expect(getJob(env.db, a2.id)).toMatchObject({ status: "failed", last_error: "flaky again", attempts: 2 });
    expect(queueDepth(env.db)).toBe(0);
  });

  test("pruning deletes old finished jobs only", () => {
    env = freshDb();
    const clock = fakeClock();
    const done = enqueue(env.db, clock, { kind: "k", payload: {} });
    const c = claim(env.db, clock, opts).job!;
    complete(env.db, clock, c.id, c.lease_token!);
    const waiting = enqueue(env.db, clock, { kind: "k", payload: {} });
    clock.advance(10_000);
    expect(pruneFinishedJobs(env.db, clock.now() - 20_000)).toBe(0);
    expect(pruneFinishedJobs(env.db, clock.now() - 5_000)).toBe(1);
    expect(getJob(env.db, done.id)).toBeNull();
    expect(getJob(env.db, waiting.id)!.status).toBe("queued");
  });

  test("a live job key is enqueued once", () => {
    env = freshDb();
    const clock = fakeClock();
    const a = enqueue(env.db, clock, { kind: "k", payload: {}, key: "x" });
    expect(enqueue(env.db, clock, { kind: "k", payload: {}, key: "x" }).id).toBe(a.id);
    expect(queueDepth(env.db)).toBe(1);
  });
});

function setup(
  runner: PipelineRunner,
  pollMs = 500,
  onFinished?: Parameters<typeof registerProcessTransaction>[1]["onFinished"],
) {
  env = freshDb();
  const clock = fakeClock();
  const notifier = createNotifier();
  const blobs = fsBlobStore(path.join(env.dir, "blobs"));
  const pool = createWorkerPool({ db: env.db, clock, leaseMs: 60_000, heartbeatMs: 60_000, pollMs });
  registerProcessTransaction(pool, {
    db: env.db,
    clock,
    blobs,
    notifier,
    runPipeline: runner,
    exportsRoot: path.join(env.dir, "exports"),
    onFinished,
  });
  const now = new Date(clock.now()).toISOString();
  createProject(env.db, { project_id: "p", tenant_id: "default", name: "P", description: "", settings: {}, now });
  tx.createTransaction(env.db, { transaction_id: "t", tenant_id: "default", project_id: "p", now });
  return { clock, pool, notifier, blobs, now };
}

const doc = {
  document_id: "d",
  document_index: 0,
  document_type: "other",
  classification_confidence: 1,
  classification: {} as never,
  split: {} as never,
  fields: {},
};

describe("worker pools", () => {
  test("two pools on two connections to one file run each of 60 jobs exactly once", async () => {
    env = freshDb();
    const other = env.connect();
    const clock = fakeClock();
    const runs = new Map<number, number>();
    let allRan = () => {};
    const ran = new Promise<void>((resolve) => (allRan = resolve));
    const pools = [env.db, other].map((db, i) => {
      const pool = createWorkerPool({ db, clock, concurrency: 3, pollMs: 5, workerId: `pool-${i}` });
      pool.registerHandler("k", async (p: { n: number }) => {
        runs.set(p.n, (runs.get(p.n) ?? 0) + 1);
        if (runs.size === 60) allRan();
        await new Promise((r) => setImmediate(r)); // yield, so the six loops interleave
      });
      return pool;
    });
    for (let n = 0; n < 60; n++) enqueue(env.db, clock, { kind: "k", payload: { n } });
    // Each loop claims its first job synchronously in start(), so both pools take part whatever the machine's load;
    // a loop that finishes a job claims the next at once (the clock never moves: no poll is needed).
    pools.forEach((p) => p.start());
    await ran;
    await Promise.all(pools.map((p) => p.stop({ graceful: true })));
    expect(queueDepth(env.db)).toBe(0);
    other.close();
    expect(runs.size).toBe(60);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    const byWorker = env.db
      .query<{ locked_by: string; n: number }, []>("SELECT locked_by, COUNT(*) AS n FROM jobs GROUP BY locked_by")
      .all();
    expect(byWorker.length).toBe(2); // both pools took part
  });
});

describe("worker timers on the injected clock", () => {
  test("heartbeats keep a long job's lease on the clock; a job whose lease ran out between beats is aborted as lost", async () => {
    env = freshDb();
    const clock = fakeClock();
    const pool = createWorkerPool({ db: env.db, clock, leaseMs: 3_000, heartbeatMs: 1_000, workerId: "w1" });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let signal: AbortSignal | null = null;
    pool.registerHandler("k", async (_p, helpers) => {
      signal = helpers.signal;
      await released;
    });
    enqueue(env.db, clock, { kind: "k", payload: {} });
    const first = pool.runOnce();
    clock.advance(60_000); // twenty lease lengths: every beat renews it
    expect(claim(env.db, clock, { ...opts, workerId: "w2" }).job).toBeNull();
    expect(signal!.aborted).toBe(false);
    release();
    await first;
    expect(queueDepth(env.db)).toBe(0);

    // Beats slower than the lease: another worker takes the job over, and the next beat aborts the first holder.
    const slow = createWorkerPool({ db: env.db, clock, leaseMs: 1_000, heartbeatMs: 5_000, workerId: "w3" });
    let reason: unknown = null;
    slow.registerHandler(
      "k",
      (_p, helpers) =>
        new Promise<void>((_, reject) =>
          helpers.signal.addEventListener("abort", () => reject((reason = helpers.signal.reason))),
        ),
    );
    const job = enqueue(env.db, clock, { kind: "k", payload: {} });
    const attempt = slow.runOnce();
    clock.advance(1_001);
    const stolen = claim(env.db, clock, { ...opts, workerId: "w4" }).job!;
    expect(stolen.id).toBe(job.id);
    expect(reason).toBeNull(); // nothing noticed yet: no beat has run
    clock.advance(3_999);
    await attempt;
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(getJob(env.db, job.id)).toMatchObject({ status: "running", attempts: 2 }); // left to its new holder
  });

  test("an idle loop polls on the clock: a job due later runs at the first poll after its run_at, not before", async () => {
    env = freshDb();
    const clock = fakeClock();
    const pool = createWorkerPool({ db: env.db, clock, pollMs: 1_000 });
    const ranAt: number[] = [];
    pool.registerHandler("k", async () => void ranAt.push(clock.now()));
    const t0 = clock.now();
    enqueue(env.db, clock, { kind: "k", payload: {}, runAt: t0 + 4_500 });
    pool.start();
    await clock.tick(4_499);
    expect(ranAt).toEqual([]);
    await clock.tick(1_000);
    expect(ranAt).toEqual([t0 + 5_000]);
    await pool.stop({ graceful: true });
  });
});

describe("process_transaction", () => {
  test("runs the pipeline on the stored files, records progress and completes with results", async () => {
    let seen: string[] = [];
    const { pool, blobs, now, clock } = setup(async (input, ctx) => {
      seen = input.sources.map((s) => `${s.index}:${s.filename}:${new TextDecoder().decode(wholeBytes(s.data))}`);
      ctx.onProgress("convert", 1, 1);
      clock.advance(2000);
      expect(tx.getTransaction(env.db, "t")!.status).toBe("processing");
      return {
        status: "success",
        documents: [doc],
        pages: [],
        manifest: { transaction_id: "t", profiles: {}, total_files: 0, total_size_bytes: 0 },
        errors: [],
        warnings: [],
      };
    });
    const hash = await blobs.put(new TextEncoder().encode("abc"));
    addSourceFile(env.db, {
      transaction_id: "t",
      filename: "a.txt",
      content_type: "text/plain",
      size: 3,
      blob_hash: hash,
      split_policy: "inherit",
      now,
    });
    submitTransaction(env.db, clock, "t");
    expect(tx.getTransaction(env.db, "t")).toMatchObject({
      status: "queued",
      current_step: "queued",
      metadata: {
        progress: { completion_percentage: 0, total_documents: 0 },
        step_progress: { current_step: "queued", steps: { ocr: { status: "pending" } } },
      },
    });
    await pool.runOnce();
    const t = tx.getTransaction(env.db, "t")!;
    expect(seen).toEqual(["0:a.txt:abc"]);
    expect(t.status).toBe("completed");
    expect(t.processing_time_seconds).toBe(2);
    expect(t.metadata).toMatchObject({
      progress: { completion_percentage: 100, total_documents: 1 },
      step_progress: { current_step: "completed" },
    });
    expect(listDocuments(env.db, "t")).toHaveLength(1);
  });

  test("a retryable error requeues the transaction; a permanent one fails it with error_message", async () => {
    let calls = 0;
    const { pool, clock } = setup(async () => {
      calls++;
      if (calls === 1) throw new DocprocError("timeout", "engine busy", { retryable: true });
      throw new DocprocError("corrupt_file", "broken file");
    });
    submitTransaction(env.db, clock, "t");
    await pool.runOnce();
    expect(tx.getTransaction(env.db, "t")!.status).toBe("queued");
    clock.advance(1000);
    await pool.runOnce();
    expect(tx.getTransaction(env.db, "t")).toMatchObject({ status: "failed", error_message: "broken file" });
  });

  test("a job still running at shutdown (even one deaf to its abort signal) goes back to the queue with its transaction", async () => {
    const { clock } = setup(async () => {
      throw new Error("unused");
    });
    const pool = createWorkerPool({ db: env.db, clock, pollMs: 10 });
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    // Subscribes to the signal only after it was aborted, so it never settles: stop() must not wait for it forever.
    registerProcessTransaction(pool, {
      db: env.db,
      clock,
      blobs: fsBlobStore(path.join(env.dir, "b")),
      notifier: createNotifier(),
      runPipeline: async (_i, ctx) => {
        started();
        await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted"))));
        throw new Error("unreachable");
      },
      exportsRoot: path.join(env.dir, "e"),
    });
    submitTransaction(env.db, clock, "t");
    pool.start();
    await running;
    expect(tx.getTransaction(env.db, "t")!.status).toBe("processing");
    // The grace period is wall time (a process must exit on time whatever its clock); 200 ms is only a wait.
    await pool.stop({ graceful: false, timeoutMs: 200 });
    expect(tx.getTransaction(env.db, "t")!.status).toBe("queued");
    expect(env.db.query("SELECT status, attempts FROM jobs").get()).toEqual({ status: "queued", attempts: 0 });
  });

  test("graceful stop: a job at its checkpoint is released with its state, the next attempt continues it, processing time skips the downtime", async () => {
    const manifest = { transaction_id: "t", profiles: {}, total_files: 0, total_size_bytes: 0 };
    const saved = {
      version: 1 as const,
      next: 1,
      stopped_after: null,
      run: 0,
      files: [],
      spans: null,
      documents: [],
      transaction_rules: [],
      manifest,
      warnings: [],
      errors: [],
    };
    const resumedFrom: unknown[] = [];
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const { clock, blobs } = setup(async () => {
      throw new Error("unused");
    });
    const runner: PipelineRunner = async (_input, ctx) => {
      resumedFrom.push(ctx.resume?.saved ?? null);
      if (!ctx.resume) {
        // First attempt: 3 s of work, then the checkpoint request comes and the run stops there.
        clock.advance(3000);
        started();
        await new Promise<void>((resolve) =>
          ctx.checkpoint!.aborted ? resolve() : ctx.checkpoint!.addEventListener("abort", () => resolve()),
        );
        return {
          status: "interrupted",
          saved: { ...saved },
          documents: [],
          pages: [],
          manifest,
          errors: [],
          warnings: [],
        };
      }
      clock.advance(2000);
      return {
        status: "success",
        saved: { ...saved, next: 9 },
        documents: [doc],
        pages: [],
        manifest,
        errors: [],
        warnings: [],
      };
    };
    const poolOn = () => {
      const pool = createWorkerPool({ db: env.db, clock, leaseMs: 60_000, heartbeatMs: 60_000, pollMs: 10 });
      registerProcessTransaction(pool, {
        db: env.db,
        clock,
        blobs,
        notifier: createNotifier(),
        runPipeline: runner,
        exportsRoot: path.join(env.dir, "exports"),
      });
      return pool;
    };
    submitTransaction(env.db, clock, "t");
    const first = poolOn();
    first.start();
    await running;
    await first.stop({ graceful: true, timeoutMs: 5_000 });
    // Released, not failed: no attempt counted, the transaction back in the queue, its state a checkpoint.
    expect(env.db.query("SELECT status, attempts FROM jobs WHERE kind = 'process_transaction'").get()).toEqual({
      status: "queued",
      attempts: 0,
    });
    expect(tx.getTransaction(env.db, "t")!.status).toBe("queued");
    expect(await loadRunState(blobs, "t")).toMatchObject({ checkpoint: true, processing_seconds: 3, next: 1 });

    clock.advance(3_600_000); // an hour of downtime
    expect((await poolOn().runOnce())?.kind).toBe("process_transaction");
    // The second attempt continued from the checkpoint (a plain payload: the stored checkpoint decides).
    expect(resumedFrom).toEqual([null, expect.objectContaining({ checkpoint: true, next: 1 })]);
    const t = tx.getTransaction(env.db, "t")!;
    expect(t.status).toBe("completed");
    expect(t.processing_time_seconds).toBe(5);
    expect(await loadRunState(blobs, "t")).toMatchObject({ next: 9, processing_seconds: 5 });
    expect((await loadRunState(blobs, "t"))!.checkpoint).toBeUndefined();
  });

  test("onFinished runs in the transaction that sets the final status, for completion and for failure", async () => {
    let fail = false;
    const finished: string[] = [];
    const { pool, clock, now } = setup(
      async () => {
        if (fail) throw new DocprocError("corrupt_file", "bad pdf", { stage: "convert" });
        return {
          status: "success",
          documents: [],
          pages: [],
          manifest: { transaction_id: "t", profiles: {}, total_files: 0, total_size_bytes: 0 },
          errors: [],
          warnings: [],
        };
      },
      500,
      (db, outcome) => {
        // Proves atomicity: the status is already visible inside the same SQLite transaction.
        finished.push(
          `${outcome.transaction_id}:${outcome.status}:${tx.getTransaction(db, outcome.transaction_id)!.status}:${"failedStage" in outcome ? outcome.failedStage : ""}`,
        );
        enqueue(db, clock, {
          kind: "webhook_delivery",
          payload: { transaction_id: outcome.transaction_id, event: outcome.status },
        });
      },
    );
    submitTransaction(env.db, clock, "t");
    await pool.runOnce();
    tx.createTransaction(env.db, { transaction_id: "t2", tenant_id: "default", project_id: "p", now });
    fail = true;
    submitTransaction(env.db, clock, "t2");
    await pool.runOnce();
    expect(finished).toEqual(["t:completed:completed:", "t2:failed:failed:convert"]);
    expect(
      env.db.query("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'webhook_delivery' AND status = 'queued'").get(),
    ).toEqual({ n: 2 });
  });

  test("an attempt that outruns its time limit fails with a timeout, and its late result is refused", async () => {
    env = freshDb();
    const clock = fakeClock();
    const pool = createWorkerPool({ db: env.db, clock, leaseMs: 60_000 });
    let late: unknown = null;
    let aborted = false;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let handlerDone = () => {};
    const handlerEnded = new Promise<void>((resolve) => (handlerDone = resolve));
    pool.registerHandler(
      "k",
      async (_p, helpers) => {
        helpers.signal.addEventListener("abort", () => (aborted = true));
        await released; // ignores the signal on purpose
        try {
          helpers.finish(() => "too late");
        } catch (err) {
          late = err;
        }
        handlerDone();
      },
      { timeoutMs: 50_000 },
    );
    const job = enqueue(env.db, clock, { kind: "k", payload: {} });
    const attempt = pool.runOnce();
    clock.advance(49_999);
    await new Promise((r) => setImmediate(r));
    expect(aborted).toBe(false); // the limit is on the pool's clock, not on wall time
    expect(getJob(env.db, job.id)!.status).toBe("running");
    clock.advance(1);
    await attempt;
    expect(aborted).toBe(true);
    expect(getJob(env.db, job.id)).toMatchObject({
      status: "failed",
      last_error: expect.stringContaining("ran longer than 50 s"),
    });
    release();
    await handlerEnded;
    expect(late).toBeInstanceOf(LeaseLostError);
  });

  test("a step can pause the transaction in awaiting_input, and resuming runs it again to completion", async () => {
    let calls = 0;
    const { pool, clock } = setup(async () => {
      if (++calls === 1) throw new AwaitInput({ step_name: "review", instructions: "Check totals", timeout_hours: 24 });
      return {
        status: "success",
        documents: [],
        pages: [],
        manifest: { transaction_id: "t", profiles: {}, total_files: 0, total_size_bytes: 0 },
        errors: [],
        warnings: [],
      };
    });
    submitTransaction(env.db, clock, "t");
    await pool.runOnce();
    expect(tx.getTransaction(env.db, "t")).toMatchObject({
      status: "awaiting_input",
      review_metadata: { step_name: "review" },
    });
    expect(queueDepth(env.db)).toBe(0);
    expect(() => submitTransaction(env.db, clock, "t")).toThrow("Cannot start transaction in awaiting_input state");
    enqueueResume(env.db, clock, "t");
    expect(tx.getTransaction(env.db, "t")!.status).toBe("queued");
    await pool.runOnce();
    expect(tx.getTransaction(env.db, "t")).toMatchObject({ status: "completed", review_metadata: null });
    expect(() => enqueueResume(env.db, clock, "t")).toThrow("Cannot resume transaction in completed state");
  });

  test("a job whose worker dies on every attempt ends failed, and so does its transaction", async () => {
    const { clock } = setup(async () => {
      throw new Error("unused");
    });
    submitTransaction(env.db, clock, "t");
    for (let i = 0; i < MAX_LOST_LEASES; i++) {
      expect(
        claim(env.db, clock, { workerId: `dead-${i}`, leaseMs: 1000, kinds: ["process_transaction"] }).job,
      ).not.toBeNull();
      clock.advance(1001); // the worker never heartbeats: its lease runs out
    }
    const pool = createWorkerPool({ db: env.db, clock });
    const seen: string[] = [];
    pool.registerHandler("process_transaction", async () => {}, {
      onFailure: (p, msg) => {
        seen.push(msg);
        tx.markFailed(env.db, p.transaction_id, new Date(clock.now()).toISOString(), msg, null);
      },
    });
    expect(await pool.runOnce()).toBeNull();
    const message = `worker lost ${MAX_LOST_LEASES} times (lease expired: killed, crashed or stalled); given up after ${MAX_LOST_LEASES} attempt(s)`;
    expect(seen).toEqual([message]);
    expect(tx.getTransaction(env.db, "t")).toMatchObject({ status: "failed", error_message: message });
    expect(queueDepth(env.db)).toBe(0);
  });

  test("the give-up message counts lost workers, not attempts: an error and nine deaths are not ten deaths", async () => {
    const { clock } = setup(async () => {
      throw new Error("unused");
    });
    submitTransaction(env.db, clock, "t");
    const kinds = ["process_transaction"];
    // Attempt 1 ends in an error the job reported (retried); then workers die.
    const first = claim(env.db, clock, { workerId: "w", leaseMs: 1000, kinds }).job!;
    expect(fail(env.db, clock, first, first.lease_token!, "transient", true, 1)).toBe("retry");
    clock.advance(10);
    let deaths = 0;
    for (; deaths < MAX_LOST_LEASES - 1; deaths++) {
      expect(claim(env.db, clock, { workerId: `dead-${deaths}`, leaseMs: 1000, kinds }).job).not.toBeNull();
      clock.advance(1001);
    }
    // Nine deaths: the job is still given another worker (its tenth attempt, its eleventh claim).
    const tenth = claim(env.db, clock, { workerId: "dead-9", leaseMs: 1000, kinds });
    expect(tenth.exhausted).toEqual([]);
    expect(tenth.job!.lost_leases).toBe(MAX_LOST_LEASES - 1);
    clock.advance(1001);
    const last = claim(env.db, clock, { workerId: "w2", leaseMs: 1000, kinds });
    expect(last.job).toBeNull();
    expect(last.exhausted).toHaveLength(1);
    const message = `worker lost ${MAX_LOST_LEASES} times (lease expired: killed, crashed or stalled); given up after ${MAX_LOST_LEASES + 1} attempt(s)`;
    expect(getJob(env.db, last.exhausted[0]!.id)!.last_error).toBe(message);
  });

  test("start outside created is refused, and a full queue answers queue_full with depths", async () => {
    const { clock, now } = setup(async () => {
      throw new Error("unused");
    });
    submitTransaction(env.db, clock, "t");
    expect(() => submitTransaction(env.db, clock, "t")).toThrow("Cannot start transaction in queued state");
    tx.createTransaction(env.db, { transaction_id: "t2", tenant_id: "default", project_id: "p", now });
    try {
      submitTransaction(env.db, clock, "t2", { maxDepth: 1 });
      throw new Error("expected queue_full");
    } catch (err) {
      expect(err).toMatchObject({ code: "queue_full", details: { current_depth: 1, max_depth: 1 } });
    }
    expect(tx.getTransaction(env.db, "t2")!.status).toBe("created");
  });

  test("the worker pool picks up a job after wake() without waiting for its poll", async () => {
    const { pool, clock, notifier } = setup(
      async () => ({
        status: "success",
        documents: [],
        pages: [],
        manifest: { transaction_id: "t", profiles: {}, total_files: 0, total_size_bytes: 0 },
        errors: [],
        warnings: [],
      }),
      60_000,
    );
    const done = new Promise<void>((resolve) =>
      notifier.subscribe("t", () => tx.getTransaction(env.db, "t")!.status === "completed" && resolve()),
    );
    pool.start(); // the loop finds nothing and waits for its poll, which is on the clock: it never fires here
    submitTransaction(env.db, clock, "t");
    pool.wake();
    await done;
    expect(clock.now()).toBe(Date.parse("2026-01-01T00:00:00Z")); // no poll could have found it
    await pool.stop({ graceful: true });
  });
});
