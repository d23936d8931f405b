/**
 * Starts the API server (and, unless workers = 0, a worker pool) on one data directory.
 * stop(): stop accepting, let in-flight jobs finish for up to `graceMs`, release the rest, close the database.
 */
import type { CaptureSettings } from "../capture/settings";
import type { AllowPrivate } from "../core/notify/ssrf";
import { webhookSettingsOf } from "../queue/deliveries";
import { openDataDir, startWorkerRuntime } from "../queue/runtime";
import { describeSettingsMigration, settingsMigrationsOf } from "../storage/schema/settings-migrate";
import type { PipelineRunner } from "../queue/pipeline-runner";
import { isoAt, systemClock } from "../core/clock";
import { publicLinksInUse, recordPublicUrl } from "../storage/projects/deployment";
import type { MailEnv } from "../mail/env";
import type { StorageConfig } from "../storage/files/storage-config";
import { startMailService } from "../mail/service";
import { createApp } from "./app";
import type { ServerConfig } from "./config";
import { createLongPoll } from "./long-poll";
import type { Telemetry } from "./observe";
import { silentLogger, type Logger } from "../telemetry/log";
import { createMetrics } from "../telemetry/metrics";
import { queueCounts } from "../storage/jobs/jobs";

export interface StartOptions {
  host: string;
  port: number;
  dataDir: string;
  /** The blob store (DOCPROC_STORAGE_URL); default: the data directory. */
  storage?: StorageConfig | null;
  workers: number;
  config: ServerConfig;
  runPipeline?: PipelineRunner;
  /** Job lease and timeout (src/settings/env.ts); defaults 30 s and 1800 s. */
  queue?: { leaseMs: number; jobTimeoutMs: number };
  /** Public URL and SSRF allow-list for webhooks; default: the listen address, public hosts only. */
  webhooks?: { publicUrl: string | null; allowPrivate: AllowPrivate };
  /** Phone capture settings; default DEFAULT_CAPTURE_SETTINGS. */
  capture?: CaptureSettings;
  /** Mail connectors (docs/email.md): they run in this process when `mail.secretKey` is set. */
  mail?: MailEnv;
  /** DOCPROC_DATABASE_URL: PostgreSQL instead of the data directory's SQLite. */
  databaseUrl?: string | null;
  log?: (msg: string) => void;
  /** Structured logs (access log, jobs, webhooks); default: none. */
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The base of capture and webhook links, and whether any are handed out (serve warns when others cannot open them). */
  publicLinks(): { base: string; capture: boolean; webhooks: boolean };
  stop(graceMs?: number): Promise<void>;
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const data = openDataDir(opts.dataDir, opts.storage, { databaseUrl: opts.databaseUrl });
  // A bucket that cannot be reached or refuses the credentials stops the start with the reason, not the first job.
  if (data.blobs.config.kind === "s3") await data.blobs.check().catch((err) => (data.db.close(), Promise.reject(err)));
  const clock = systemClock;
  const telemetry: Telemetry = {
    log: opts.logger ?? silentLogger,
    metrics: createMetrics({ queueCounts: () => queueCounts(data.db) }),
  };
  for (const r of settingsMigrationsOf(data.db))
    telemetry.log.info({ event: "settings_migrated", ...r }, describeSettingsMigration(r));
  // Webhook links use DOCPROC_PUBLIC_URL, else the address this server listens on (known once it listens).
  let listenUrl: string | null = null;
  const webhooks = webhookSettingsOf(opts.webhooks ?? { publicUrl: null, allowPrivate: false }, () => listenUrl);
  const queue = opts.queue ?? { leaseMs: 30_000, jobTimeoutMs: 1_800_000 };
  const runtime = startWorkerRuntime({
    data,
    concurrency: opts.workers,
    clock,
    leaseMs: queue.leaseMs,
    jobTimeoutMs: queue.jobTimeoutMs,
    runPipeline: opts.runPipeline,
    webhooks,
    log: opts.log,
    telemetry: { log: opts.logger, metrics: telemetry.metrics },
  });
  const longPoll = createLongPoll(data.db, runtime.notifier, opts.config.longPollRecheckMs);
  const app = createApp(
    {
      db: data.db,
      clock,
      blobs: data.blobs,
      notifier: runtime.notifier,
      config: opts.config,
      capture: opts.capture,
      exportsRoot: data.exportsRoot,
      workers: Math.max(1, opts.workers),
      wake: () => runtime.pool.wake(),
      running: () => runtime.pool.running(),
      ocrStatus: () => runtime.ocrStatus(),
      telemetry,
      secretKey: opts.mail?.secretKey ?? null,
    },
    longPoll,
  );
  // Bun's own limit is a backstop for bodies without Content-Length; the app answers 413 with a detail first.
  app.listen({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: opts.config.maxBodyBytes + 1024 * 1024,
    idleTimeout: 0,
  });
  const port = app.server!.port!;
  const mail = startMail(opts, data, () => runtime.pool.wake());
  listenUrl = `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`;
  // `docproc worker` processes without DOCPROC_PUBLIC_URL build their webhook links from this (storage/projects/deployment.ts).
  const publicUrl = opts.webhooks?.publicUrl ?? null;
  recordPublicUrl(data.db, publicUrl ?? listenUrl, publicUrl !== null, isoAt(clock));
  return {
    url: listenUrl,
    port,
    publicLinks: () => ({ base: publicUrl ?? listenUrl!, ...publicLinksInUse(data.db) }),
    async stop(graceMs = 30_000) {
      // Stop listening first, then answer held long polls so in-flight requests can drain.
      const stopped = app.stop();
      longPoll.close();
      await stopped;
      await mail?.stop();
      await runtime.stop(true, graceMs);
      data.db.close();
    },
  };
}

/** E-mail import connectors (docs/email.md) run here when DOCPROC_SECRET_KEY is set; null otherwise. */
function startMail(opts: StartOptions, data: ReturnType<typeof openDataDir>, wake: () => void) {
  const limits = {
    maxQueueDepth: opts.config.maxQueueDepth,
    maxFileBytes: opts.config.maxFileBytes,
    maxFiles: opts.config.maxFilesPerUpload,
  };
  return opts.mail
    ? startMailService({
        db: data.db,
        clock: systemClock,
        blobs: data.blobs,
        env: opts.mail,
        limits,
        wake,
        log: opts.log ?? (() => {}),
      })
    : null;
}
