/**
 * The real Elysia app over a fresh data directory, wired the way `docproc serve` wires it (real SQLite, real blob
 * store, real queue), for tests that call it in process (`app.handle`) or on a loopback port (`listen()`).
 */
import { rmSync } from "node:fs";
import { DEFAULT_AUTH_SETTINGS, type AuthSettings } from "../../src/auth/settings";
import type { WebhookSettings } from "../../src/queue/deliveries";
import type { PipelineRunner } from "../../src/queue/pipeline-runner";
import { openDataDir, startWorkerRuntime, type WorkerRuntimeOptions } from "../../src/queue/runtime";
import { createApp } from "../../src/server/app";
import { DEFAULT_CONFIG, type ServerConfig } from "../../src/server/config";
import type { ServerDeps } from "../../src/server/deps";
import { createLongPoll } from "../../src/server/long-poll";
import { systemClock, type Clock } from "../../src/core/clock";
import type { StorageConfig } from "../../src/storage/files/storage-config";
import { fakeRunner } from "./fake-runner";
import { makeTempDir } from "./temp";
import { testDatabaseUrl } from "./postgres";
import type { Telemetry } from "../../src/server/observe";

export interface TestAppOptions {
  adminKey: string;
  /** Temp directory prefix (`docproc-<prefix>-`), unless `dir` names the data directory. */
  prefix: string;
  dir?: string;
  /** The blob store (default: the data directory), e.g. a bucket on the S3 stand-in (test/support/s3.ts). */
  storage?: StorageConfig;
  clock?: Clock;
  /** Pipeline; default: the fake runner (one document per file, two export files); "core": the real runner. */
  runner?: PipelineRunner | "core";
  /** With runner "core": built-in stages replaced (a test-only pausing step). */
  stages?: WorkerRuntimeOptions["stages"];
  /** Worker slots that process jobs in this process (default 0: the API only). */
  workers?: number;
  /** Worker slots the deps announce (health, estimates); default 1. */
  slots?: number;
  /** false: the deps do not reach the pool (wake is a no-op, nothing runs, OCR idle), as in an API-only process. */
  wirePool?: boolean;
  auth?: Partial<AuthSettings>;
  config?: Partial<ServerConfig>;
  webhooks?: WebhookSettings;
  /** The database (default: the data directory's SQLite, or a fresh PostgreSQL schema on the PostgreSQL run). */
  databaseUrl?: string;
  /** Access log and metrics (default: none logged, a private registry). */
  telemetry?: Telemetry;
}

export type TestApp = ReturnType<typeof buildTestApp>;

export function buildTestApp(opts: TestAppOptions) {
  const dir = opts.dir ?? makeTempDir(opts.prefix);
  const data = openDataDir(dir, opts.storage, { databaseUrl: opts.databaseUrl ?? testDatabaseUrl(dir) });
  const clock = opts.clock ?? systemClock;
  const runtime = startWorkerRuntime({
    data,
    concurrency: opts.workers ?? 0,
    clock,
    runPipeline: opts.runner === "core" ? undefined : (opts.runner ?? fakeRunner),
    stages: opts.stages,
    webhooks: opts.webhooks,
    telemetry: opts.telemetry,
  });
  const config: ServerConfig = {
    ...DEFAULT_CONFIG,
    adminApiKey: opts.adminKey,
    longPollRecheckMs: 100,
    auth: { ...DEFAULT_AUTH_SETTINGS, ...opts.auth },
    ...opts.config,
  };
  const pool = opts.wirePool ?? true;
  const deps: ServerDeps = {
    db: data.db,
    clock,
    blobs: data.blobs,
    notifier: runtime.notifier,
    config,
    exportsRoot: data.exportsRoot,
    workers: opts.slots ?? 1,
    wake: pool ? () => runtime.pool.wake() : () => {},
    running: pool ? () => runtime.pool.running() : () => 0,
    ocrStatus: pool ? () => runtime.ocrStatus() : () => ({ status: "idle" }),
    telemetry: opts.telemetry,
  };
  const longPoll = createLongPoll(data.db, runtime.notifier, config.longPollRecheckMs, clock);
  const app = createApp(deps, longPoll);
  let listening = false;
  return {
    app,
    deps,
    data,
    runtime,
    longPoll,
    dir,
    clock,
    /** Listens on 127.0.0.1 (a free port); returns the base URL. */
    listen(): string {
      app.listen({ hostname: "127.0.0.1", port: 0 });
      listening = true;
      return `http://127.0.0.1:${app.server!.port}`;
    },
    /** Stops the listener (if any), the queue and the database; removes the data directory unless `keepDir`. */
    async close(closeOpts: { keepDir?: boolean } = {}) {
      if (listening) await app.stop();
      longPoll.close();
      await runtime.stop(false, 1000);
      data.db.close();
      if (!closeOpts.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
