/** Users who sign in with a password (sessions). Usernames are unique per tenant. */
import { json, type Db } from "../schema/db";

export interface UserRecord {
  user_id: string;
  tenant_id: string;
  username: string;
  permissions: string[];
  created_at: string;
  disabled_at: string | null;
}

type Row = Omit<UserRecord, "permissions"> & { permissions: string; password_hash: string };

const toRecord = ({ password_hash: _hash, ...r }: Row): UserRecord => ({
  ...r,
  permissions: json<string[]>(r.permissions, []),
});

export function insertUser(db: Db, u: Omit<UserRecord, "disabled_at"> & { password_hash: string }): UserRecord {
  db.query(
    "INSERT INTO users (user_id, tenant_id, username, password_hash, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(u.user_id, u.tenant_id, u.username, u.password_hash, JSON.stringify(u.permissions), u.created_at);
  return getUser(db, u.user_id)!;
}

export function getUser(db: Db, userId: string): UserRecord | null {
  const row = db.query<Row, [string]>("SELECT * FROM users WHERE user_id = ?").get(userId);
  return row ? toRecord(row) : null;
}

/** The user with its password hash, for sign-in only. */
export function findUserForLogin(
  db: Db,
  tenantId: string,
  username: string,
): (UserRecord & { password_hash: string }) | null {
  const row = db
    .query<Row, [string, string]>("SELECT * FROM users WHERE tenant_id = ? AND username = ?")
    .get(tenantId, username);
  return row ? { ...toRecord(row), password_hash: row.password_hash } : null;
}

export function listUsers(db: Db, tenantId?: string): UserRecord[] {
  const rows = tenantId
    ? db.query<Row, [string]>("SELECT * FROM users WHERE tenant_id = ? ORDER BY username").all(tenantId)
    : db.query<Row, []>("SELECT * FROM users ORDER BY tenant_id, username").all();
  return rows.map(toRecord);
}
