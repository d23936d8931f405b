/**
 * Clients: integrations that hold API keys. A client belongs to one tenant and carries its permissions and
 * optional per-client rate-limit overrides (NULL = server default).
 */
import { json, type Db } from "../schema/db";

export interface ClientRecord {
  client_id: string;
  tenant_id: string;
  name: string;
  permissions: string[];
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  async_limit_per_hour: number | null;
  created_at: string;
  updated_at: string;
}

export interface ClientWithKeyCounts extends ClientRecord {
  total_api_keys: number;
  active_api_keys: number;
}

type Row = Omit<ClientWithKeyCounts, "permissions"> & { permissions: string };

const SELECT = `SELECT c.*,
  (SELECT COUNT(*) FROM api_keys k WHERE k.client_id = c.client_id) AS total_api_keys,
  (SELECT COUNT(*) FROM api_keys k WHERE k.client_id = c.client_id AND k.revoked_at IS NULL) AS active_api_keys
  FROM clients c`;

const toRecord = (r: Row): ClientWithKeyCounts => ({ ...r, permissions: json<string[]>(r.permissions, []) });

export type LimitOverrides = Pick<
  ClientRecord,
  "rate_limit_per_minute" | "rate_limit_per_hour" | "async_limit_per_hour"
>;

export function insertClient(
  db: Db,
  c: Omit<ClientRecord, "created_at" | "updated_at">,
  now: string,
): ClientWithKeyCounts {
  db.query(
    `INSERT INTO clients (client_id, tenant_id, name, permissions, rate_limit_per_minute, rate_limit_per_hour, async_limit_per_hour, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.client_id,
    c.tenant_id,
    c.name,
    JSON.stringify(c.permissions),
    c.rate_limit_per_minute,
    c.rate_limit_per_hour,
    c.async_limit_per_hour,
    now,
    now,
  );
  return getClient(db, c.client_id)!;
}

export function getClient(db: Db, clientId: string): ClientWithKeyCounts | null {
  const row = db.query<Row, [string]>(`${SELECT} WHERE c.client_id = ?`).get(clientId);
  return row ? toRecord(row) : null;
}

/** All clients, or those of one tenant. */
export function listClientRows(db: Db, tenantId?: string): ClientWithKeyCounts[] {
  const rows = tenantId
    ? db.query<Row, [string]>(`${SELECT} WHERE c.tenant_id = ? ORDER BY c.created_at, c.client_id`).all(tenantId)
    : db.query<Row, []>(`${SELECT} ORDER BY c.tenant_id, c.created_at, c.client_id`).all();
  return rows.map(toRecord);
}

export interface ClientPatch extends Partial<LimitOverrides> {
  name?: string;
  permissions?: string[];
}

/** Applies the given fields (an override set to null returns to the default); null when the client is unknown. */
export function updateClientRow(db: Db, clientId: string, patch: ClientPatch, now: string): ClientWithKeyCounts | null {
  const sets: string[] = [];
  const values: Array<string | number | null> = [];
  const put = (col: string, v: string | number | null) => (sets.push(`${col} = ?`), values.push(v));
  if (patch.name !== undefined) put("name", patch.name);
  if (patch.permissions !== undefined) put("permissions", JSON.stringify(patch.permissions));
  for (const col of ["rate_limit_per_minute", "rate_limit_per_hour", "async_limit_per_hour"] as const) {
    if (patch[col] !== undefined) put(col, patch[col]);
  }
  put("updated_at", now);
  // stack-safe: one value per column of the clients table.
  const res = db.query(`UPDATE clients SET ${sets.join(", ")} WHERE client_id = ?`).run(...values, clientId);
  return res.changes ? getClient(db, clientId) : null;
}

/** Deletes the client and (by cascade) its keys; false when it did not exist. */
export function deleteClientRow(db: Db, clientId: string): boolean {
  return db.query("DELETE FROM clients WHERE client_id = ?").run(clientId).changes > 0;
}
