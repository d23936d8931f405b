/** `docproc worker --data DIR`: extra worker processes on a data directory a `docproc serve` also uses. */
import { Command, Flags } from "@oclif/core";
import { dataDirFlag, logFlags } from "../cli/flags";

export default class WorkerCommand extends Command {
  static summary = "Process queued transactions of a data directory (extra workers next to docproc serve)";
  static description =
    "Claims jobs from the queue of --data (or of DOCPROC_DATABASE_URL's PostgreSQL, with files in DOCPROC_STORAGE_URL: " +
    "docs/scaling.md) under expiring leases (DOCPROC_LEASE_SECONDS, default 30), so several processes can share one " +
    "queue; a worker that dies has its jobs retried by the others. One attempt may run DOCPROC_JOB_TIMEOUT_SECONDS " +
    "(default 1800). SIGTERM stops running jobs at their next checkpoint (OCR: the pages being read), stores what is " +
    "done and releases them; the next worker continues them. Webhook links: DOCPROC_PUBLIC_URL, else the base the " +
    "servers recorded in the database.";
  static examples = ["<%= config.bin %> <%= command.id %> --data ./docproc-data --concurrency 2"];
  static flags = {
    data: dataDirFlag("data directory (the one docproc serve uses)"),
    concurrency: Flags.integer({
      description: "jobs processed at once",
      default: 1,
      min: 1,
      max: 64,
      helpValue: "<n>",
    }),
    ...logFlags(),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(WorkerCommand);
    const [
      { openDataDir, startWorkerRuntime },
      { waitForSignal },
      { loadEnvSettings },
      { webhookSettingsOf },
      { recordedPublicUrl },
    ] = await Promise.all([
      import("../queue/runtime"),
      import("./serve"),
      import("../settings/env"),
      import("../queue/deliveries"),
      import("../storage/projects/deployment"),
    ]);
    const { loggerFromFlags } = await import("../telemetry/cli");
    const env = loadEnvSettings();
    const logger = loggerFromFlags(flags, "worker", env.log);
    const stopSignal = waitForSignal(); // before the start is announced: a signal right after it must stop cleanly
    const data = openDataDir(flags.data, env.storage, { databaseUrl: env.database.url });
    const { describeSettingsMigration, settingsMigrationsOf } = await import("../storage/schema/settings-migrate");
    for (const r of settingsMigrationsOf(data.db))
      logger.info({ event: "settings_migrated", ...r }, describeSettingsMigration(r));
    if (env.storage) await data.blobs.check().catch((err) => (data.db.close(), Promise.reject(err)));
    const runtime = startWorkerRuntime({
      data,
      concurrency: flags.concurrency,
      leaseMs: env.queue.leaseMs,
      jobTimeoutMs: env.queue.jobTimeoutMs,
      webhooks: webhookSettingsOf(env.webhooks, () => recordedPublicUrl(data.db)),
      log: (m) => logger.warn(m),
      telemetry: { log: logger },
    });
    const storage = env.storage
      ? `, storage: ${(await import("../storage/files/storage-config")).describeStorage(env.storage)}`
      : "";
    process.stdout.write(`docproc worker running on ${data.dir} (concurrency ${flags.concurrency}${storage})\n`);
    const signal = await stopSignal;
    logger.info({ event: "shutdown", signal }, `${signal}: finishing running jobs`);
    await runtime.stop(true, 30_000);
    logger.info({ event: "stopped" }, "stopped");
    data.db.close();
    return 0;
  }
}
