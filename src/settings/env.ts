/**
 * Every environment variable docproc reads, in one zod schema, parsed once at the start of a command.
 *
 * Contract: a command MUST call `loadEnvSettings()` once and hand the slices below to the parts that need them;
 * nothing under src/ other than this module reads `process.env` for settings (core never does). Every problem is
 * reported at once in one `invalid_settings` error (paperless-ngx lists all configuration errors at start-up; fixing
 * them one restart at a time is the worst experience an operator can have). An empty value counts as unset.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DEFAULT_AUTH_SETTINGS, type AuthSettings } from "../auth/settings";
import { DEFAULT_CAPTURE_SETTINGS, type CaptureSettings } from "../capture/settings";
import { DocprocError } from "../core/errors";
import { parseAllowList, type AllowPrivate } from "../core/notify/ssrf";
import { DEFAULT_CONFIG, type ServerConfig } from "../server/config";
import { parseTrustProxy } from "../server/proxy";
import type { LogSettings } from "../telemetry/cli";
import { DEFAULT_MAIL_LEASE_SECONDS, DEFAULT_MAIL_MAX_ATTEMPTS, type MailEnv } from "../mail/env";
import { parseSecretKey } from "../storage/auth/secret-box";
import { parseStorageUrl, type StorageConfig } from "../storage/files/storage-config";
import { DIAGNOSTICS_VARIABLES } from "./diagnostics";
import {
  bool,
  cidrList,
  httpUrl,
  integer,
  positive,
  postgresUrl,
  secretKey,
  storageUrl,
  text,
  unsetIfEmpty,
} from "./env-values";
import { unknownVariables } from "./env-names";

export { unknownVariables } from "./env-names";

type Env = Record<string, string | undefined>;

/** The variables, with what each means; docs/ARCHITECTURE.md and `docproc serve --help` list the same. */
export const EnvSchema = z.object({
  ADMIN_API_KEY: text().describe(
    "X-API-Key value that authorises everything; when unset, serve generates one on its first start and keeps it in DATA/admin-api-key",
  ),
  DOCPROC_HOST: text().describe("address `serve` listens on (same as --host; default 127.0.0.1)"),
  DOCPROC_PORT: integer(0, 65535).describe("port `serve` listens on (same as --port; default 8080)"),
  DOCPROC_DATA: text().describe("data directory (same as --data; default ./docproc-data)"),
  DOCPROC_DATABASE_URL: postgresUrl().describe(
    "postgres://user:pass@host:5432/db[?schema=name]: PostgreSQL instead of the data directory's SQLite (docs/scaling.md)",
  ),
  DOCPROC_MAX_BODY_MB: positive().describe("largest request body (MB, default 100)"),
  DOCPROC_MAX_FILE_MB: positive().describe("largest single file (MB, default 50)"),
  DOCPROC_MAX_FILES: integer(1, 100_000).describe("most files per request (default 100)"),
  DOCPROC_MAX_QUEUE_DEPTH: integer(1, 10_000_000).describe(
    "jobs waiting or running before 429 queue_full (default 1000)",
  ),
  DOCPROC_MAX_LONG_POLL_SECONDS: positive().describe("longest long poll (seconds, default 120)"),
  DOCPROC_MAX_DOCUMENT_TEXT_MB: positive().describe(
    "largest documentText of a one-step request (MB of UTF-8, default 1)",
  ),
  DOCPROC_MAX_OCR_DATA_MB: positive().describe("largest ocrData of a one-step request (MB of JSON, default 20)"),
  DOCPROC_MAX_PUBLIC_UPLOADS: integer(1, 10_000).describe("capture uploads read at once; more answer 429 (default 4)"),
  DOCPROC_MAX_CAPTURE_FILES_FIRST_MB: positive().describe(
    "largest capture submit with the token after the files (deprecated form; MB, default 20)",
  ),
  DOCPROC_LEASE_SECONDS: positive().describe("job lease (seconds, default 30)"),
  DOCPROC_JOB_TIMEOUT_SECONDS: positive().describe("longest a job may run (seconds, default 1800)"),
  DOCPROC_PUBLIC_URL: httpUrl().describe("public base URL for capture and webhook links"),
  DOCPROC_WEBHOOK_ALLOW: cidrList().describe("private/loopback webhook receivers allowed (CIDR list, * for all)"),
  DOCPROC_CAPTURE_MAX_PAGES: integer(1, DEFAULT_CAPTURE_SETTINGS.maxPageLimit).describe(
    "max_pages of a capture token minted without page_limit (default 20)",
  ),
  DOCPROC_RATE_LIMIT_PER_MINUTE: positive().describe("requests per minute per API key (default 600)"),
  DOCPROC_RATE_LIMIT_PER_HOUR: positive().describe("requests per hour per API key (default 18000)"),
  DOCPROC_ASYNC_LIMIT_PER_HOUR: positive().describe("async submissions per hour per API key (default 300)"),
  DOCPROC_SESSION_HOURS: positive().describe("absolute session lifetime (hours, default 12)"),
  DOCPROC_SESSION_IDLE_MINUTES: positive().describe("idle session timeout (minutes, default 30)"),
  DOCPROC_TRUST_PROXY: z
    .preprocess(
      unsetIfEmpty,
      z
        .string()
        .superRefine((v, ctx) => {
          try {
            parseTrustProxy(v);
          } catch (e) {
            ctx.addIssue({ code: "custom", message: (e as Error).message });
          }
        })
        .optional(),
    )
    .describe(
      "honour X-Forwarded-Proto/Host/Prefix: true, or the proxies' addresses/CIDRs (default off; docs/operations.md)",
    ),
  DOCPROC_METRICS_TOKEN: text().describe("bearer token that may read GET /metrics besides the admin key"),
  DOCPROC_LOG_FORMAT: z
    .preprocess(unsetIfEmpty, z.enum(["json", "pretty"]).optional())
    .describe("log lines: json or pretty (same as --log-format; default pretty on a terminal, else json)"),
  DOCPROC_LOG_LEVEL: z
    .preprocess(unsetIfEmpty, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional())
    .describe("least severe level logged (same as --log-level; default info)"),
  DOCPROC_SECRET_KEY: secretKey().describe(
    "32 random bytes (base64 or hex) sealing mail connector passwords at rest; mail connectors need it",
  ),
  DOCPROC_MAIL_LEASE_SECONDS: integer(1, 86_400).describe(
    `how long a connector's claim on a message holds before another process may take it over (default ${DEFAULT_MAIL_LEASE_SECONDS})`,
  ),
  DOCPROC_STORAGE_URL: storageUrl().describe(
    "blob store (originals, page images, export files, run state): unset = the data directory; s3://bucket/prefix = an S3-compatible bucket (docs/storage.md)",
  ),
  AWS_ENDPOINT_URL_S3: httpUrl().describe(
    "S3 endpoint for DOCPROC_STORAGE_URL (MinIO, Garage, Ceph, R2…; default: AWS_ENDPOINT_URL, else AWS itself)",
  ),
  AWS_ENDPOINT_URL: httpUrl().describe("endpoint for every AWS service; the S3 one when AWS_ENDPOINT_URL_S3 is unset"),
  AWS_REGION: text().describe("S3 region (default: AWS_DEFAULT_REGION, else us-east-1)"),
  AWS_DEFAULT_REGION: text().describe("S3 region when AWS_REGION is unset"),
  AWS_ACCESS_KEY_ID: text().describe("S3 access key id"),
  AWS_SECRET_ACCESS_KEY: text().describe("S3 secret access key"),
  AWS_SESSION_TOKEN: text().describe("S3 session token (temporary credentials)"),
  DOCPROC_S3_VIRTUAL_HOSTED: bool().describe(
    "true: bucket in the host name (AWS style); false: in the path (default: false when an endpoint is set, else true)",
  ),
  DOCPROC_MAIL_MAX_ATTEMPTS: integer(1, 1000).describe(
    `failed imports of one message before it is left in the mailbox alone (default ${DEFAULT_MAIL_MAX_ATTEMPTS})`,
  ),
});

export type EnvVariables = z.infer<typeof EnvSchema>;

export interface EnvSettings {
  /** Listen address and data directory; undefined where the variable is unset (the command's flag or default wins). */
  listen: { host?: string; port?: number; dataDir?: string };
  server: ServerConfig & { generatedKey: boolean };
  auth: AuthSettings;
  capture: CaptureSettings;
  queue: { leaseMs: number; jobTimeoutMs: number };
  webhooks: { publicUrl: string | null; allowPrivate: AllowPrivate };
  /** DOCPROC_LOG_FORMAT / DOCPROC_LOG_LEVEL; the commands' --log-format / --log-level win. */
  log: LogSettings;
  mail: MailEnv;
  /** DOCPROC_STORAGE_URL with the S3 variables; null: the data directory. */
  storage: StorageConfig | null;
  /** DOCPROC_DATABASE_URL; null: the data directory's SQLite file. */
  database: { url: string | null };
}

/** Every variable with its description, for help texts and docs. */
export function describeEnv(): Array<{ name: string; description: string }> {
  const settings = Object.entries(EnvSchema.shape).map(([name, s]) => ({ name, description: s.description ?? "" }));
  return [...settings, ...DIAGNOSTICS_VARIABLES];
}

/** Parses the environment once; throws `invalid_settings` naming every bad or unknown variable at once. */
export function loadEnvSettings(env: Env = process.env): EnvSettings {
  const parsed = EnvSchema.safeParse(env);
  const unknown = unknownVariables(env);
  if (!parsed.success || unknown.length > 0) {
    const bad = parsed.success
      ? []
      : parsed.error.issues.map(
          (i) => `${i.path.join(".")} ${i.message}, got ${JSON.stringify(env[String(i.path[0])])}`,
        );
    throw new DocprocError("invalid_settings", `environment: ${[...bad, ...unknown].join("; ")}`);
  }
  const v = parsed.data!;
  const MB = 1024 * 1024;
  const auth = authOf(v);
  const d = DEFAULT_CONFIG;
  const storage = storageOf(v);
  const publicUrl = v.DOCPROC_PUBLIC_URL?.replace(/\/+$/, "") ?? null;
  return {
    listen: { host: v.DOCPROC_HOST, port: v.DOCPROC_PORT, dataDir: v.DOCPROC_DATA },
    server: {
      adminApiKey: v.ADMIN_API_KEY ?? randomBytes(24).toString("base64url"),
      generatedKey: !v.ADMIN_API_KEY,
      maxBodyBytes: v.DOCPROC_MAX_BODY_MB !== undefined ? Math.floor(v.DOCPROC_MAX_BODY_MB * MB) : d.maxBodyBytes,
      maxFileBytes: v.DOCPROC_MAX_FILE_MB !== undefined ? Math.floor(v.DOCPROC_MAX_FILE_MB * MB) : d.maxFileBytes,
      maxFilesPerUpload: v.DOCPROC_MAX_FILES ?? d.maxFilesPerUpload,
      maxQueueDepth: v.DOCPROC_MAX_QUEUE_DEPTH ?? d.maxQueueDepth,
      maxLongPollSeconds: v.DOCPROC_MAX_LONG_POLL_SECONDS ?? d.maxLongPollSeconds,
      longPollRecheckMs: d.longPollRecheckMs,
      maxDocumentTextBytes:
        v.DOCPROC_MAX_DOCUMENT_TEXT_MB !== undefined
          ? Math.floor(v.DOCPROC_MAX_DOCUMENT_TEXT_MB * MB)
          : d.maxDocumentTextBytes,
      maxOcrDataBytes:
        v.DOCPROC_MAX_OCR_DATA_MB !== undefined ? Math.floor(v.DOCPROC_MAX_OCR_DATA_MB * MB) : d.maxOcrDataBytes,
      maxPublicUploads: v.DOCPROC_MAX_PUBLIC_UPLOADS ?? d.maxPublicUploads,
      ...(v.DOCPROC_MAX_CAPTURE_FILES_FIRST_MB !== undefined
        ? { maxCaptureFilesFirstBytes: Math.floor(v.DOCPROC_MAX_CAPTURE_FILES_FIRST_MB * MB) }
        : {}),
      auth,
      metricsToken: v.DOCPROC_METRICS_TOKEN ?? null,
      trustProxy: parseTrustProxy(v.DOCPROC_TRUST_PROXY),
    },
    auth,
    capture: {
      ...DEFAULT_CAPTURE_SETTINGS,
      defaultMaxPages: v.DOCPROC_CAPTURE_MAX_PAGES ?? DEFAULT_CAPTURE_SETTINGS.defaultMaxPages,
      publicUrl,
    },
    queue: {
      leaseMs: (v.DOCPROC_LEASE_SECONDS ?? 30) * 1000,
      jobTimeoutMs: (v.DOCPROC_JOB_TIMEOUT_SECONDS ?? 1800) * 1000,
    },
    webhooks: { publicUrl, allowPrivate: parseAllowList(v.DOCPROC_WEBHOOK_ALLOW) },
    log: { format: v.DOCPROC_LOG_FORMAT, level: v.DOCPROC_LOG_LEVEL },
    database: { url: v.DOCPROC_DATABASE_URL ?? null },
    mail: {
      secretKey: v.DOCPROC_SECRET_KEY ? parseSecretKey(v.DOCPROC_SECRET_KEY) : null,
      leaseMs: (v.DOCPROC_MAIL_LEASE_SECONDS ?? DEFAULT_MAIL_LEASE_SECONDS) * 1000,
      maxAttempts: v.DOCPROC_MAIL_MAX_ATTEMPTS ?? DEFAULT_MAIL_MAX_ATTEMPTS,
    },
    storage,
  };
}

function authOf(v: EnvVariables): AuthSettings {
  const a = DEFAULT_AUTH_SETTINGS;
  return {
    ...a,
    ratePerMinute: Math.floor(v.DOCPROC_RATE_LIMIT_PER_MINUTE ?? a.ratePerMinute),
    ratePerHour: Math.floor(v.DOCPROC_RATE_LIMIT_PER_HOUR ?? a.ratePerHour),
    asyncPerHour: Math.floor(v.DOCPROC_ASYNC_LIMIT_PER_HOUR ?? a.asyncPerHour),
    sessionLifetimeMs:
      v.DOCPROC_SESSION_HOURS !== undefined ? Math.floor(v.DOCPROC_SESSION_HOURS * 3600_000) : a.sessionLifetimeMs,
    sessionIdleMs:
      v.DOCPROC_SESSION_IDLE_MINUTES !== undefined
        ? Math.floor(v.DOCPROC_SESSION_IDLE_MINUTES * 60_000)
        : a.sessionIdleMs,
  };
}

/** DOCPROC_STORAGE_URL with the S3 variables; null: the data directory. */
function storageOf(v: EnvVariables): StorageConfig | null {
  const virtualHosted =
    v.DOCPROC_S3_VIRTUAL_HOSTED === undefined
      ? undefined
      : v.DOCPROC_S3_VIRTUAL_HOSTED === "true" || v.DOCPROC_S3_VIRTUAL_HOSTED === "1";
  return v.DOCPROC_STORAGE_URL
    ? parseStorageUrl(v.DOCPROC_STORAGE_URL, {
        endpoint: v.AWS_ENDPOINT_URL_S3 ?? v.AWS_ENDPOINT_URL,
        region: v.AWS_REGION ?? v.AWS_DEFAULT_REGION ?? "us-east-1",
        accessKeyId: v.AWS_ACCESS_KEY_ID,
        secretAccessKey: v.AWS_SECRET_ACCESS_KEY,
        sessionToken: v.AWS_SESSION_TOKEN,
        virtualHostedStyle: virtualHosted,
      })
    : null;
}
