/**
 * Opens a data directory and runs a worker pool on it. Used by `docproc serve` (workers inside the server) and
 * `docproc worker` (extra processes on the same directory).
 *
 * Layout: `<data>/docproc.db` (SQLite, WAL), and the blob store (storage/files/blobs.ts): by default the data directory
 * (`<data>/blobs/sha256/..` originals and page images, `<data>/exports/<transaction_id>/`, `<data>/state/`), or the
 * S3 bucket `DOCPROC_STORAGE_URL` names, so processes on other hosts share it.
 * With `databaseUrl` (DOCPROC_DATABASE_URL=postgres://…) the database is PostgreSQL instead of the SQLite file, and
 * status changes and new jobs reach the other processes by LISTEN/NOTIFY (storage/schema/pg/signals.ts).
 */
import { cpuCount } from "../core/cores";
import path from "node:path";
import type { BlobStore } from "../storage/files/blobs";
import { openBlobStore, storageConfigOf, type StorageConfig } from "../storage/files/storage-config";
import { systemClock, type Clock } from "../core/clock";
import { openDatabase, type Db } from "../storage/schema/db";
import { openPostgres } from "../storage/schema/pg/open";
import type { Stage, StageName } from "../core/stages/types";
import { learnOnFinished } from "./learn";
import { enqueueReached, type WebhookSettings } from "./deliveries";
import { deliveriesOnFinished, registerWebhookDeliveries } from "./delivery-attempts";
import { createNotifier, type Notifier } from "./notifier";
import { corePipelineRunner, type CorePipelineRunner, type PipelineRunner } from "./pipeline-runner";
import { threadedPipelineRunner } from "./threaded-runner";
import { registerProcessTransaction, type ProcessDeps } from "./process-transaction";
import { registerReviewTimeouts } from "./review-resume";
import { createWorkerPool, type WorkerOptions, type WorkerPool } from "./worker";
import { instrumentRunner } from "./instrument";

export interface DataDir {
  dir: string;
  db: Db;
  blobs: BlobStore;
  exportsRoot: string;
}

/**
 * Opens the database (`databaseUrl`: PostgreSQL, else `<dir>/docproc.db`) and the blob store (`storage` when given:
 * DOCPROC_STORAGE_URL, else the directory).
 */
export function openDataDir(
  dir: string,
  storage?: StorageConfig | null,
  opts: { databaseUrl?: string | null } = {},
): DataDir {
  const root = path.resolve(dir);
  const blobs = openBlobStore(storageConfigOf(root, storage));
  const db = opts.databaseUrl
    ? openPostgres(opts.databaseUrl)
    : openDatabase(path.join(root, "docproc.db"), { backgroundCheckpoints: true });
  return { dir: root, db, blobs, exportsRoot: path.join(root, "exports") };
}

export interface WorkerRuntimeOptions {
  data: DataDir;
  /** Jobs processed at once by this process. 0 runs no workers (API only). */
  concurrency: number;
  clock?: Clock;
  notifier?: Notifier;
  /** Lease length; a crashed worker's jobs are retried this long after its last heartbeat. */
  leaseMs?: number;
  /** Replaces the core pipeline (tests). */
  runPipeline?: PipelineRunner;
  /** Replaces built-in stages of the core runner (tests: a pausing test-only step). */
  stages?: Partial<Record<StageName, Stage>>;
  /** Overrides every project's `ocr.engine` (none: each project's choice applies). */
  ocrEngine?: "auto" | "wasm" | "native";
  /** Longest one processing attempt may take. */
  jobTimeoutMs?: number;
  /** Follow-up work committed with a transaction's final status (see ProcessDeps.onFinished). */
  onFinished?: ProcessDeps["onFinished"];
  /** Webhook deliveries (public URL for links, SSRF allow-list); default: no public URL, public hosts only. */
  webhooks?: WebhookSettings;
  log?: (msg: string) => void;
  /** Job lifecycle log lines and job metrics (src/telemetry); default: none. */
  telemetry?: WorkerOptions["telemetry"];
}

export interface WorkerRuntime {
  pool: WorkerPool;
  notifier: Notifier;
  runner: CorePipelineRunner | null;
  ocrStatus: CorePipelineRunner["ocrStatus"];
  /** True once this process hears other processes' signals (PostgreSQL LISTEN is up); false when it never will. */
  signalsReady: Promise<boolean>;
  stop(graceful: boolean, timeoutMs?: number): Promise<void>;
}

export function startWorkerRuntime(opts: WorkerRuntimeOptions): WorkerRuntime {
  const clock = opts.clock ?? systemClock;
  const db = opts.data.db;
  // PostgreSQL: every status change is also NOTIFYed, so long polls on other servers wake at once.
  const notifier = opts.notifier ?? createNotifier(db.notify ? (id) => db.notify!("status", id) : undefined);
  const runner = pipelineRunnerOf(opts);
  const pool = createWorkerPool({
    db: opts.data.db,
    clock,
    concurrency: opts.concurrency,
    leaseMs: opts.leaseMs,
    log: opts.log,
    telemetry: opts.telemetry,
  });
  // Every finished transaction enqueues its webhook deliveries (src/queue/deliveries.ts) in the status commit.
  const deliveryDeps = {
    db: opts.data.db,
    clock,
    notifier,
    settings: opts.webhooks ?? { publicBaseUrl: () => null, allowPrivate: false },
    log: opts.log,
  };
  registerWebhookDeliveries(pool, deliveryDeps);
  const planDeliveries = deliveriesOnFinished(pool, deliveryDeps);
  const onFinished: ProcessDeps["onFinished"] = (db, outcome) => {
    planDeliveries(db, outcome);
    learnOnFinished(db, clock, outcome, opts.log);
    opts.onFinished?.(db, outcome);
  };
  registerProcessTransaction(pool, {
    db: opts.data.db,
    clock,
    blobs: opts.data.blobs,
    notifier,
    runPipeline: opts.telemetry
      ? instrumentRunner(opts.runPipeline ?? runner!.run, opts.telemetry)
      : (opts.runPipeline ?? runner!.run),
    exportsRoot: opts.data.exportsRoot,
    onReached: reachedEnqueuer(opts, clock, pool, deliveryDeps.settings),
    onFinished,
    jobTimeoutMs: opts.jobTimeoutMs,
  });
  // A review's timeout acts (continue or fail) when it is due (src/queue/review-resume.ts).
  registerReviewTimeouts(pool, {
    db: opts.data.db,
    clock,
    blobs: opts.data.blobs,
    wake: () => pool.wake(),
    emit: (id) => notifier.emit(id),
    onFinished,
  });
  if (opts.concurrency > 0) {
    runner?.warm();
    pool.start();
  }
  const signals = db.listen
    ? db.listen({ jobs: () => pool.wake(), status: (id) => notifier.emit(id, { local: true }) }).catch((err) => {
        opts.log?.(`LISTEN failed, falling back to polling: ${(err as Error).message}`);
        return null;
      })
    : Promise.resolve(null);
  return {
    pool,
    notifier,
    runner,
    signalsReady: signals.then((s) => s !== null),
    ocrStatus: () => runner?.ocrStatus() ?? { status: "ready", engine: "injected" },
    async stop(graceful, timeoutMs) {
      await pool.stop({ graceful, timeoutMs });
      await runner?.close();
      await (await signals)?.close();
    },
  };
}

/**
 * The pipeline runs on its own thread: the process's main thread (HTTP in `serve`) never waits for a job's CPU.
 * Replaced stages (tests) are functions, which cannot cross to a thread: those runs stay on this thread. No engine
 * is forced: each project's `ocr.engine` applies unless `ocrEngine` overrides it. Null with an injected runner.
 */
function pipelineRunnerOf(opts: WorkerRuntimeOptions): CorePipelineRunner | null {
  const runnerOptions = { engine: opts.ocrEngine, ocrWorkers: Math.max(1, cpuCount()) };
  if (opts.runPipeline) return null;
  return opts.stages
    ? corePipelineRunner({ ...runnerOptions, stages: opts.stages })
    : threadedPipelineRunner(runnerOptions);
}

/** A Notification node reached mid-run is enqueued at once, with the manifest of that moment. */
function reachedEnqueuer(
  opts: WorkerRuntimeOptions,
  clock: Clock,
  pool: WorkerPool,
  settings: WebhookSettings,
): NonNullable<ProcessDeps["onReached"]> {
  return (transactionId, stepIndex, manifest, run) => {
    const res = enqueueReached(opts.data.db, clock, transactionId, stepIndex, manifest, settings, run);
    for (const w of res.warnings) opts.log?.(`transaction ${transactionId}: ${w}`);
    if (res.enqueued > 0) setTimeout(() => pool.wake(), 0);
  };
}
