/**
 * `docproc mail add|list|remove|messages|run` (src/commands/mail.ts parses, this does the work).
 * `run` imports from every enabled connector of the data directory and, unless `--concurrency 0`, also processes
 * what it queued with in-process workers (like `docproc worker`); `--once` polls each connector once, waits until
 * what it imported is processed (with workers), and exits 1 when a connector could not be polled or a message could
 * not be imported (both are also recorded for the API).
 */
import { readFileSync } from "node:fs";
import { printResult } from "./admin";
import { defaultProject } from "../core/project";
import { DocprocError } from "../core/errors";
import {
  connectorMessages,
  connectorView,
  createConnector,
  deleteConnector,
  requireSecretKey,
} from "../mail/connectors";
import type { MailContext, PollReport } from "../mail/importer";
import { pollOnce, runContinuously } from "../mail/runner";
import { webhookSettingsOf } from "../queue/deliveries";
import { openDataDir, startWorkerRuntime, type DataDir } from "../queue/runtime";
import { loadEnvSettings } from "../settings/env";

/** The data directory with the database and blob store the environment names (PostgreSQL and S3 when set). */
function openData(dataDir: string): DataDir {
  const settings = loadEnvSettings();
  return openDataDir(dataDir, settings.storage, { databaseUrl: settings.database.url });
}
import { systemClock } from "../core/clock";
import { getMailConnector, listMailConnectors } from "../storage/mail/mail-connectors";
import { createProject, getProject, listProjects } from "../storage/projects/projects";
import { ensureTenant } from "../storage/auth/tenants";
import { getTransaction } from "../storage/transactions/transactions";

export interface MailAddFlags {
  tenant: string;
  project?: string;
  name?: string;
  host: string;
  port?: number;
  security: string;
  username: string;
  "password-env": string;
  "ca-file"?: string;
  folder: string;
  from?: string;
  subject?: string;
  unseen: boolean;
  after: string;
  "move-to"?: string;
  "poll-interval": number;
  idle: boolean;
  "skip-inline-below"?: number;
}

const PROJECT_NAME = "Mail import";

/** The project connectors of the CLI import into when none is named: one "Mail import" project per tenant. */
function projectFor(data: DataDir, tenant: string, projectId: string | undefined): string {
  if (projectId) {
    if (!getProject(data.db, tenant, projectId))
      throw new DocprocError("not_found", `Project ${projectId} not found in tenant ${tenant}`);
    return projectId;
  }
  const now = new Date().toISOString();
  ensureTenant(data.db, tenant, now);
  const existing = listProjects(data.db, tenant).find((p) => p.name === PROJECT_NAME);
  return (
    existing?.project_id ??
    createProject(data.db, {
      project_id: crypto.randomUUID(),
      tenant_id: tenant,
      name: PROJECT_NAME,
      description: "Created by docproc mail add",
      settings: defaultProject,
      now,
    }).project_id
  );
}

export function mailAdd(dataDir: string, f: MailAddFlags, json: boolean): void {
  const password = process.env[f["password-env"]];
  if (!password)
    throw new DocprocError(
      "invalid_input",
      `Set the IMAP password in the environment variable ${f["password-env"]} (it is never taken as a flag)`,
    );
  const env = loadEnvSettings().mail;
  const data = openData(dataDir);
  try {
    const body: Record<string, unknown> = {
      host: f.host,
      security: f.security,
      username: f.username,
      password,
      folder: f.folder,
      filter: { ...(f.from ? { from: f.from } : {}), ...(f.subject ? { subject: f.subject } : {}), unseen: f.unseen },
      after_import: { action: f.after, ...(f["move-to"] ? { folder: f["move-to"] } : {}) },
      poll_interval_seconds: f["poll-interval"],
      idle: f.idle,
      ...(f.name ? { name: f.name } : {}),
      ...(f.port ? { port: f.port } : {}),
      ...(f["ca-file"] ? { ca_certificate: readFileSync(f["ca-file"], "utf8") } : {}),
      ...(f["skip-inline-below"] !== undefined ? { skip_inline_images_below_bytes: f["skip-inline-below"] } : {}),
    };
    requireSecretKey(env.secretKey);
    const project = projectFor(data, f.tenant, f.project);
    const c = createConnector({ db: data.db, clock: systemClock, secretKey: env.secretKey }, f.tenant, project, body);
    printResult(json ? connectorView(data.db, c) : flat(connectorView(data.db, c)), json);
  } finally {
    data.db.close();
  }
}

/** Nested settings as one JSON cell each, for the key: value listing. */
const flat = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [
      k,
      k === "ca_certificate" ? "(PEM set)" : v !== null && typeof v === "object" ? JSON.stringify(v) : v,
    ]),
  );

export function mailList(dataDir: string, json: boolean): void {
  const data = openData(dataDir);
  try {
    const rows = listMailConnectors(data.db).map((c) => {
      const v = connectorView(data.db, c);
      return { ...v, imported: v.messages.imported + v.messages.done, failed: v.messages.failed };
    });
    printResult(rows, json, [
      "connector_id",
      "project_id",
      "name",
      "enabled",
      "host",
      "folder",
      "imported",
      "failed",
      "last_poll_at",
      "last_error",
    ]);
  } finally {
    data.db.close();
  }
}

function requireById(data: DataDir, id: string) {
  const c = getMailConnector(data.db, id);
  if (!c) throw new DocprocError("not_found", `Mail connector ${id} not found`);
  return c;
}

export function mailRemove(dataDir: string, id: string): void {
  const data = openData(dataDir);
  try {
    const c = requireById(data, id);
    deleteConnector(data.db, c.tenant_id, c.project_id, id);
    process.stdout.write(`removed mail connector ${id}\n`);
  } finally {
    data.db.close();
  }
}

export function mailMessages(dataDir: string, id: string, state: string | undefined, json: boolean): void {
  const data = openData(dataDir);
  try {
    const c = requireById(data, id);
    printResult(connectorMessages(data.db, c.tenant_id, c.project_id, id, { state }).items, json, [
      "uid",
      "state",
      "subject",
      "from",
      "transaction_id",
      "attempts",
      "error",
    ]);
  } finally {
    data.db.close();
  }
}

function reportLine(r: PollReport): string {
  return `mail ${r.connector_id}: ${r.matched} matching, ${r.imported.length} imported, ${r.duplicates.length} duplicate, ${r.failed.length} failed${r.queue_full ? ", queue full (rest next poll)" : ""}\n`;
}

/** Until none of `ids` is queued or processing (the job timeout bounds each one). */
async function settled(data: DataDir, ids: string[]): Promise<void> {
  const busy = () => ids.some((id) => ["queued", "processing"].includes(getTransaction(data.db, id)?.status ?? ""));
  while (busy()) await Bun.sleep(200);
}

export async function mailRun(
  dataDir: string,
  opts: { once: boolean; connectors?: string[]; concurrency: number },
  waitForSignal: () => Promise<string>,
): Promise<number> {
  const settings = loadEnvSettings();
  const env = settings.mail;
  const secretKey = requireSecretKey(env.secretKey);
  const config = settings.server;
  const data = openDataDir(dataDir, settings.storage, { databaseUrl: settings.database.url });
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const runtime =
    opts.concurrency > 0
      ? startWorkerRuntime({
          data,
          concurrency: opts.concurrency,
          leaseMs: settings.queue.leaseMs,
          jobTimeoutMs: settings.queue.jobTimeoutMs,
          webhooks: webhookSettingsOf(settings.webhooks),
          log,
        })
      : null;
  const ctx: MailContext = {
    db: data.db,
    clock: systemClock,
    blobs: data.blobs,
    maxQueueDepth: config.maxQueueDepth,
    maxFileBytes: config.maxFileBytes,
    maxFiles: config.maxFilesPerUpload,
    leaseMs: env.leaseMs,
    maxAttempts: env.maxAttempts,
    wake: () => runtime?.pool.wake(),
    log,
  };
  try {
    if (opts.once) {
      const { reports, errors } = await pollOnce(ctx, {
        secretKey,
        connectorIds: opts.connectors,
        onReport: (r) => process.stdout.write(reportLine(r)),
      });
      for (const e of errors) process.stdout.write(`mail ${e.connector_id}: not polled: ${e.error}\n`);
      // With workers, --once also processes what it imported before it exits (what a cron job expects).
      if (runtime)
        await settled(
          data,
          reports.flatMap((r) => r.imported.map((i) => i.transaction_id)),
        );
      return errors.length > 0 || reports.some((r) => r.failed.length > 0) ? 1 : 0;
    }
    const stop = new AbortController();
    process.stdout.write(
      `docproc mail running on ${data.dir} (${listMailConnectors(data.db, { enabled: true }).length} connectors, ${opts.concurrency} workers)\n`,
    );
    const loops = runContinuously(ctx, {
      secretKey,
      connectorIds: opts.connectors,
      signal: stop.signal,
      onReport: (r) => (r.imported.length || r.failed.length) && process.stdout.write(reportLine(r)),
    });
    await Promise.race([waitForSignal(), loops]);
    stop.abort();
    await loops;
    return 0;
  } finally {
    await runtime?.stop(true, 30_000);
    data.db.close();
  }
}
