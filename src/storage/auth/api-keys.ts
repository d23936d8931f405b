/**
 * API keys. Only the SHA-256 digest of a key is stored; the key itself is shown once, at creation.
 * `findKeyByHash` MUST read the database on every call (no cache), so a revocation is effective on the next request.
 */
import { json, type Db } from "../schema/db";

export interface ApiKeyRecord {
  key_id: string;
  client_id: string;
  key_suffix: string;
  description: string;
  created_at: string;
  revoked_at: string | null;
}

/** An active key joined with what authentication needs from its client. */
export interface ActiveKey {
  key_id: string;
  key_hash: string;
  client_id: string;
  tenant_id: string;
  permissions: string[];
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  async_limit_per_hour: number | null;
}

export function insertApiKey(db: Db, k: Omit<ApiKeyRecord, "revoked_at"> & { key_hash: string }): ApiKeyRecord {
  db.query(
    "INSERT INTO api_keys (key_id, client_id, key_hash, key_suffix, description, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(k.key_id, k.client_id, k.key_hash, k.key_suffix, k.description, k.created_at);
  return getApiKey(db, k.client_id, k.key_id)!;
}

export function getApiKey(db: Db, clientId: string, keyId: string): ApiKeyRecord | null {
  return (
    db
      .query<ApiKeyRecord, [string, string]>(
        "SELECT key_id, client_id, key_suffix, description, created_at, revoked_at FROM api_keys WHERE client_id = ? AND key_id = ?",
      )
      .get(clientId, keyId) ?? null
  );
}

export function listApiKeys(db: Db, clientId: string): ApiKeyRecord[] {
  return db
    .query<ApiKeyRecord, [string]>(
      "SELECT key_id, client_id, key_suffix, description, created_at, revoked_at FROM api_keys WHERE client_id = ? ORDER BY created_at, key_id",
    )
    .all(clientId);
}

type ClientPart = Omit<ActiveKey, "key_id" | "key_hash" | "client_id" | "permissions"> & { permissions: string };

/**
 * The active (not revoked) key with this digest, with its client's tenant, permissions and limit overrides.
 * Two single-table primary-key reads: measurably cheaper per request than the equivalent join.
 */
export function findKeyByHash(db: Db, keyHash: string): ActiveKey | null {
  const key = db
    .query<{ key_id: string; key_hash: string; client_id: string }, [string]>(
      "SELECT key_id, key_hash, client_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
    )
    .get(keyHash);
  return key ? withClient(db, key) : null;
}

/** The same by key id (for work done later on behalf of a key, e.g. a phone capture the key minted). */
export function findActiveKeyById(db: Db, keyId: string): ActiveKey | null {
  const key = db
    .query<{ key_id: string; key_hash: string; client_id: string }, [string]>(
      "SELECT key_id, key_hash, client_id FROM api_keys WHERE key_id = ? AND revoked_at IS NULL",
    )
    .get(keyId);
  return key ? withClient(db, key) : null;
}

function withClient(db: Db, key: { key_id: string; key_hash: string; client_id: string }): ActiveKey | null {
  const c = db
    .query<ClientPart, [string]>(
      "SELECT tenant_id, permissions, rate_limit_per_minute, rate_limit_per_hour, async_limit_per_hour FROM clients WHERE client_id = ?",
    )
    .get(key.client_id);
  return c ? { ...key, ...c, permissions: json<string[]>(c.permissions, []) } : null;
}

/** Marks the key revoked (idempotent: an already revoked key keeps its first revocation time). Null when unknown. */
export function revokeApiKey(db: Db, clientId: string, keyId: string, now: string): ApiKeyRecord | null {
  db.query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE client_id = ? AND key_id = ?").run(
    now,
    clientId,
    keyId,
  );
  return getApiKey(db, clientId, keyId);
}
