/**
 * Mail connectors (docs/email.md). `settings` holds no secret; `password_sealed` is readable only through
 * `sealedPasswordOf`, which the importer alone calls. `MailConnectorRecord` has no password field, so no view can
 * return one by accident.
 */
import { json, type Db } from "../schema/db";

export interface MailConnectorRecord {
  connector_id: string;
  tenant_id: string;
  project_id: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  last_poll_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

type Row = Omit<MailConnectorRecord, "enabled" | "settings"> & { enabled: number; settings: string };

const COLUMNS =
  "connector_id, tenant_id, project_id, name, enabled, settings, last_poll_at, last_error, created_at, updated_at";
const toRecord = (r: Row): MailConnectorRecord => ({ ...r, enabled: r.enabled === 1, settings: json(r.settings, {}) });

export interface NewMailConnector {
  connector_id: string;
  tenant_id: string;
  project_id: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  password_sealed: string;
  now: string;
}

export function insertMailConnector(db: Db, c: NewMailConnector): MailConnectorRecord {
  db.query(
    `INSERT INTO mail_connectors (connector_id, tenant_id, project_id, name, enabled, settings, password_sealed, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.connector_id,
    c.tenant_id,
    c.project_id,
    c.name,
    c.enabled ? 1 : 0,
    JSON.stringify(c.settings),
    c.password_sealed,
    c.now,
    c.now,
  );
  return getMailConnector(db, c.connector_id)!;
}

export function getMailConnector(db: Db, id: string): MailConnectorRecord | null {
  const row = db.query<Row, [string]>(`SELECT ${COLUMNS} FROM mail_connectors WHERE connector_id = ?`).get(id);
  return row ? toRecord(row) : null;
}

export function listMailConnectors(
  db: Db,
  filter: { tenant_id?: string; project_id?: string; enabled?: boolean } = {},
): MailConnectorRecord[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  if (filter.tenant_id !== undefined) where.push("tenant_id = ?"), args.push(filter.tenant_id);
  if (filter.project_id !== undefined) where.push("project_id = ?"), args.push(filter.project_id);
  if (filter.enabled !== undefined) where.push("enabled = ?"), args.push(filter.enabled ? 1 : 0);
  const sql = `SELECT ${COLUMNS} FROM mail_connectors ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at, connector_id`;
  // stack-safe: three filters at most.
  return db
    .query<Row, Array<string | number>>(sql)
    .all(...args)
    .map(toRecord);
}

export function updateMailConnector(
  db: Db,
  id: string,
  patch: { name?: string; enabled?: boolean; settings?: Record<string, unknown>; password_sealed?: string },
  now: string,
): MailConnectorRecord | null {
  const cur = getMailConnector(db, id);
  if (!cur) return null;
  db.query(
    "UPDATE mail_connectors SET name = ?, enabled = ?, settings = ?, password_sealed = COALESCE(?, password_sealed), last_error = NULL, updated_at = ? WHERE connector_id = ?",
  ).run(
    patch.name ?? cur.name,
    (patch.enabled ?? cur.enabled) ? 1 : 0,
    JSON.stringify(patch.settings ?? cur.settings),
    patch.password_sealed ?? null,
    now,
    id,
  );
  return getMailConnector(db, id);
}

export function deleteMailConnector(db: Db, id: string): boolean {
  return db.query("DELETE FROM mail_connectors WHERE connector_id = ?").run(id).changes === 1;
}

/** Only for the importer, which opens it with the secret key to log in. */
export function sealedPasswordOf(db: Db, id: string): string | null {
  return (
    db
      .query<{ password_sealed: string }, [string]>(
        "SELECT password_sealed FROM mail_connectors WHERE connector_id = ?",
      )
      .get(id)?.password_sealed ?? null
  );
}

export function recordPoll(db: Db, id: string, now: string, error: string | null): void {
  db.query("UPDATE mail_connectors SET last_poll_at = ?, last_error = ? WHERE connector_id = ?").run(now, error, id);
}
