/** `docproc serve`: flags and help only; the server is in src/server/start.ts. */
import { Command, Flags } from "@oclif/core";
import { dataDirFlag, logFlags } from "../cli/flags";

export default class ServeCommand extends Command {
  static summary = "Run the REST API with a durable job queue on one data directory";
  static description = [
    "Serves the API of the interface spec (see /docs and /api-docs once running) and processes transactions with " +
      "--workers jobs at once. Everything lives in --data: the SQLite database, the original files and the export files " +
      "(with DOCPROC_STORAGE_URL=s3://bucket/prefix, all but the database live in that bucket; docs/storage.md).",
    "Settings from the environment (all checked at start, every problem listed at once; src/settings/env.ts): " +
      "DOCPROC_HOST, DOCPROC_PORT and DOCPROC_DATA (used when --host, --port, --data are not given), ADMIN_API_KEY (X-API-Key value; when unset, one is generated on the first start, stored in DATA/admin-api-key (mode 0600) and reused; docs/auth.md), " +
      "DOCPROC_MAX_BODY_MB (100), DOCPROC_MAX_FILE_MB (50), DOCPROC_MAX_FILES (100), DOCPROC_MAX_QUEUE_DEPTH (1000), " +
      "DOCPROC_MAX_LONG_POLL_SECONDS (120), DOCPROC_LEASE_SECONDS (30), DOCPROC_JOB_TIMEOUT_SECONDS (1800), " +
      "DOCPROC_PUBLIC_URL (base of capture and webhook links; default: the listen address; serve warns when it is a loopback address and capture or webhooks are in use), DOCPROC_WEBHOOK_ALLOW (webhook " +
      "receivers on private or loopback networks, e.g. 127.0.0.0/8; off by default; see docs/webhooks.md), " +
      "DOCPROC_TRUST_PROXY (honour X-Forwarded-Proto/Host/Prefix: true or the proxies' addresses; off by default), " +
      "DOCPROC_METRICS_TOKEN (bearer token for GET /metrics), DOCPROC_LOG_FORMAT, DOCPROC_LOG_LEVEL (docs/operations.md), " +
      "DOCPROC_STORAGE_URL with AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, DOCPROC_S3_VIRTUAL_HOSTED (docs/storage.md).",
    "SIGTERM or SIGINT: stop accepting requests; running jobs stop at their next checkpoint (OCR: the pages being read), store what is done and go back to the queue; the next start continues them (docs/operations.md).",
  ].join("\n\n");
  static examples = [
    "ADMIN_API_KEY=secret <%= config.bin %> <%= command.id %> --data ./docproc-data",
    "<%= config.bin %> <%= command.id %> --host 0.0.0.0 --port 9000 --workers 4",
  ];
  static flags = {
    host: Flags.string({
      description: "address to listen on (default: DOCPROC_HOST, else 127.0.0.1)",
      helpValue: "<host>",
    }),
    port: Flags.integer({
      description: "port to listen on, 0 picks a free one (default: DOCPROC_PORT, else 8080)",
      min: 0,
      max: 65535,
      helpValue: "<port>",
    }),
    data: dataDirFlag(),
    workers: Flags.integer({
      description: "jobs processed at once in this process (0: API only)",
      default: 2,
      min: 0,
      max: 64,
      helpValue: "<n>",
    }),
    ...logFlags(),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(ServeCommand);
    const [{ startServer }, { loadEnvSettings }, { loggerFromFlags }, start] = await Promise.all([
      import("../server/start"),
      import("../settings/env"),
      import("../telemetry/cli"),
      import("../cli/serve-start"),
    ]);
    const env = loadEnvSettings();
    const logger = loggerFromFlags(flags, "serve", env.log);
    // Without ADMIN_API_KEY the data directory keeps one (src/cli/serve-start.ts), so clients survive a restart.
    const storedKey = env.server.generatedKey ? start.storedAdminKey(flags.data) : null;
    const config = storedKey ? { ...env.server, adminApiKey: storedKey.key } : env.server;
    const host = flags.host ?? env.listen.host ?? "127.0.0.1";
    const port = flags.port ?? env.listen.port ?? 8080;
    // Listen for SIGTERM/SIGINT before anything announces the server: a supervisor may signal as soon as it reads
    // the listening line, and a signal before the handler would kill the process instead of stopping it cleanly.
    const stopSignal = waitForSignal();
    const server = await startServer({
      host,
      port,
      dataDir: flags.data,
      storage: env.storage,
      workers: flags.workers,
      config,
      queue: env.queue,
      webhooks: env.webhooks,
      capture: env.capture,
      mail: env.mail,
      databaseUrl: env.database.url,
      logger,
      log: (m) => logger.warn(m),
    });
    logger.info({ event: "listening", url: server.url, workers: flags.workers }, `listening on ${server.url}`);
    const storage = env.storage
      ? `, storage: ${(await import("../storage/files/storage-config")).describeStorage(env.storage)}`
      : "";
    process.stdout.write(
      `docproc serve listening on ${server.url} (data: ${flags.data}${env.database.url ? ", database: PostgreSQL" : ""}, workers: ${flags.workers}${storage})\n`,
    );
    if (storedKey) process.stdout.write(start.adminKeyNotice(storedKey));
    const links = server.publicLinks();
    const warning = start.publicUrlWarning(links.base, links);
    if (warning)
      logger.warn(
        { event: "public_url_loopback", base: links.base, capture: links.capture, webhooks: links.webhooks },
        warning,
      );
    const signal = await stopSignal;
    process.stdout.write("docproc serve: shutting down\n");
    logger.info({ event: "shutdown", signal }, `${signal}: shutting down`);
    await server.stop();
    logger.info({ event: "stopped" }, "stopped");
    return 0;
  }
}

/** Resolves on the first SIGTERM or SIGINT. */
export function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      resolve(sig);
    };
    const onTerm = () => on("SIGTERM");
    const onInt = () => on("SIGINT");
    process.on("SIGTERM", onTerm);
    process.on("SIGINT", onInt);
  });
}
