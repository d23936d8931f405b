/** Mail tests: a data directory with one project and a connector pointed at the private dovecot. */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { defaultProject } from "../../src/core/project";
import { createConnector } from "../../src/mail/connectors";
import type { MailContext } from "../../src/mail/importer";
import { openDataDir, type DataDir } from "../../src/queue/runtime";
import { systemClock } from "../../src/core/clock";
import { createProject } from "../../src/storage/projects/projects";
import { parseSecretKey } from "../../src/storage/auth/secret-box";
import { listSourceFiles } from "../../src/storage/files/source-files";
import { makeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";
import type { Dovecot } from "./dovecot";

export const SECRET = randomBytes(32).toString("base64");
export const KEY = parseSecretKey(SECRET);

const made: DataDir[] = [];

/** Closes and removes every data directory `dataDir()` made (each mail suite's afterAll). */
export function removeDataDirs(): void {
  for (const data of made.splice(0)) {
    data.db.close();
    rmSync(data.dir, { recursive: true, force: true });
  }
}

export function dataDir(): DataDir & { project_id: string } {
  const data = openDataDir(makeTempDir("mail-data"));
  made.push(data);
  const p = createProject(data.db, {
    project_id: crypto.randomUUID(),
    tenant_id: "default",
    name: "Mail",
    description: "",
    settings: defaultProject,
    now: new Date().toISOString(),
  });
  return { ...data, project_id: p.project_id };
}

/** Resolves once no message of the data directory is held by a lease that has not run out (a killed process's). */
export function leasesRunOut(data: DataDir): Promise<true> {
  return waitFor("the leases of the killed process to run out", () => {
    const row = data.db
      .query<{ until: number | null }, []>(
        "SELECT MAX(claim_until) AS until FROM mail_messages WHERE claim_token IS NOT NULL",
      )
      .get();
    return Date.now() > (row?.until ?? 0);
  });
}

export function connectorBody(d: Dovecot, extra: Record<string, unknown> = {}) {
  return {
    name: "test inbox",
    host: d.host,
    port: d.port,
    security: "none",
    username: d.user,
    password: d.password,
    poll_interval_seconds: 1,
    ...extra,
  };
}

export function addConnector(data: DataDir & { project_id: string }, d: Dovecot, extra: Record<string, unknown> = {}) {
  return createConnector(
    { db: data.db, clock: systemClock, secretKey: KEY },
    "default",
    data.project_id,
    connectorBody(d, extra),
  );
}

export function mailContext(data: DataDir, over: Partial<MailContext> = {}): MailContext & { logs: string[] } {
  const logs: string[] = [];
  return {
    db: data.db,
    clock: systemClock,
    blobs: data.blobs,
    maxQueueDepth: 1000,
    maxFileBytes: 50 * 1024 * 1024,
    maxFiles: 100,
    leaseMs: 60_000,
    maxAttempts: 3,
    wake: () => {},
    log: (m) => void logs.push(m),
    logs,
    ...over,
  };
}

export interface TxRow {
  transaction_id: string;
  correlation_id: string | null;
  status: string;
  source: string;
  metadata: string;
}

export function transactions(data: DataDir): TxRow[] {
  return data.db
    .query<TxRow, []>(
      "SELECT transaction_id, correlation_id, status, source, metadata FROM transactions ORDER BY created_at, transaction_id",
    )
    .all();
}

export function filesOf(data: DataDir, id: string) {
  return listSourceFiles(data.db, id).map((f) => ({
    filename: f.filename,
    split_policy: f.split_policy,
    content_type: f.content_type,
    size: f.size,
  }));
}

/** A tiny valid PDF (one page) for attachments. */
export const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
