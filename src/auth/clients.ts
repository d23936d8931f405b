/**
 * Client and API-key administration (used by the admin endpoints and the CLI). A generated key is returned once,
 * by createKey; nothing can read it again, since only its digest is stored.
 */
import { DocprocError } from "../core/errors";
import { getApiKey, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from "../storage/auth/api-keys";
import * as store from "../storage/auth/clients";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { DEFAULT_TENANT } from "../storage/auth/tenants";
import { newApiKey, newId } from "./keys";
import { DEFAULT_CLIENT_PERMISSIONS, parsePermissions } from "./permissions";
import { checkId, requireTenant } from "./tenants";

const LIMIT_FIELDS = ["rate_limit_per_minute", "rate_limit_per_hour", "async_limit_per_hour"] as const;

export interface ClientInput {
  client_id?: unknown;
  name?: unknown;
  tenant_id?: unknown;
  permissions?: unknown;
  rate_limit_per_minute?: unknown;
  rate_limit_per_hour?: unknown;
  async_limit_per_hour?: unknown;
}

export function clientView(c: store.ClientWithKeyCounts) {
  return {
    client_id: c.client_id,
    name: c.name,
    tenant_id: c.tenant_id,
    permissions: c.permissions,
    has_api_key: c.active_api_keys > 0,
    total_api_keys: c.total_api_keys,
    active_api_keys: c.active_api_keys,
    rate_limit_per_minute: c.rate_limit_per_minute,
    rate_limit_per_hour: c.rate_limit_per_hour,
    async_limit_per_hour: c.async_limit_per_hour,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export const keyView = (k: ApiKeyRecord) => ({
  key_id: k.key_id,
  key_suffix: k.key_suffix,
  description: k.description,
  created_at: k.created_at,
  revoked_at: k.revoked_at,
  active: k.revoked_at === null,
});

function text(v: unknown, field: string, max: number): string {
  if (typeof v !== "string" || v.trim() === "" || v.length > max)
    throw new DocprocError("invalid_input", `${field}: a non-empty string of at most ${max} characters`);
  return v.trim();
}

function permissionList(v: unknown): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
    throw new DocprocError("invalid_input", "permissions: an array of permission names");
  return parsePermissions(v as string[]);
}

/** A limit override: a positive integer, or null for the server default. */
function limit(v: unknown, field: string): number | null {
  if (v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 1e9)
    throw new DocprocError("invalid_input", `${field}: a positive integer, or null for the default`);
  return v;
}

export function requireClient(db: Db, clientId: string): store.ClientWithKeyCounts {
  const c = store.getClient(db, clientId);
  if (!c) throw new DocprocError("not_found", `Client ${clientId} not found`);
  return c;
}

export function createClient(db: Db, clock: Clock, input: ClientInput) {
  const clientId = input.client_id === undefined ? newId("client_") : checkId(input.client_id, "client_id");
  const tenantId = input.tenant_id === undefined ? DEFAULT_TENANT : checkId(input.tenant_id, "tenant_id");
  const name = input.name === undefined ? clientId : text(input.name, "name", 200);
  const permissions = input.permissions === undefined ? DEFAULT_CLIENT_PERMISSIONS : permissionList(input.permissions);
  const limits = Object.fromEntries(
    LIMIT_FIELDS.map((f) => [f, input[f] === undefined ? null : limit(input[f], f)]),
  ) as store.LimitOverrides;
  requireTenant(db, tenantId);
  if (store.getClient(db, clientId)) throw new DocprocError("conflict", `Client ${clientId} already exists`);
  return clientView(
    store.insertClient(db, { client_id: clientId, tenant_id: tenantId, name, permissions, ...limits }, isoAt(clock)),
  );
}

export function listClients(db: Db, tenantId?: string) {
  return store.listClientRows(db, tenantId).map(clientView);
}

export function getClientDetail(db: Db, clientId: string) {
  const c = requireClient(db, clientId);
  return { ...clientView(c), api_keys: listApiKeys(db, clientId).map(keyView) };
}

/** PATCH: name, permissions and the limit overrides (null returns one to the default). The tenant cannot change. */
export function updateClient(db: Db, clock: Clock, clientId: string, input: ClientInput) {
  if (input.client_id !== undefined && input.client_id !== clientId)
    throw new DocprocError("invalid_input", "client_id cannot be changed");
  if (input.tenant_id !== undefined)
    throw new DocprocError("invalid_input", "tenant_id cannot be changed: create a client in the other tenant");
  const patch: store.ClientPatch = {};
  if (input.name !== undefined) patch.name = text(input.name, "name", 200);
  if (input.permissions !== undefined) patch.permissions = permissionList(input.permissions);
  for (const f of LIMIT_FIELDS) if (input[f] !== undefined) patch[f] = limit(input[f], f);
  const c = store.updateClientRow(db, clientId, patch, isoAt(clock));
  if (!c) throw new DocprocError("not_found", `Client ${clientId} not found`);
  return clientView(c);
}

export function deleteClient(db: Db, clientId: string) {
  if (!store.deleteClientRow(db, clientId)) throw new DocprocError("not_found", `Client ${clientId} not found`);
  return { client_id: clientId, deleted: true };
}

/** Generates a key for the client. The response is the only place the key value ever appears. */
export function createKey(db: Db, clock: Clock, clientId: string, input: { description?: unknown }) {
  const client = requireClient(db, clientId);
  const description =
    input.description === undefined || input.description === null
      ? ""
      : typeof input.description === "string" && input.description.length <= 500
        ? input.description
        : null;
  if (description === null) throw new DocprocError("invalid_input", "description: a string of at most 500 characters");
  const secret = newApiKey();
  const rec = insertApiKey(db, {
    key_id: newId("key_"),
    client_id: clientId,
    key_hash: secret.hash,
    key_suffix: secret.suffix,
    description,
    created_at: isoAt(clock),
  });
  return {
    api_key: secret.value,
    key_id: rec.key_id,
    key_suffix: rec.key_suffix,
    client_id: clientId,
    client_name: client.name,
    description: rec.description,
    created_at: rec.created_at,
  };
}

export function listKeys(db: Db, clientId: string) {
  requireClient(db, clientId);
  return listApiKeys(db, clientId).map(keyView);
}

/** Revokes a key: the next request with it answers 401. Revoking twice keeps the first revocation time. */
export function revokeKey(db: Db, clock: Clock, clientId: string, keyId: string) {
  requireClient(db, clientId);
  if (!getApiKey(db, clientId, keyId))
    throw new DocprocError("not_found", `Key ${keyId} not found for client ${clientId}`);
  return keyView(revokeApiKey(db, clientId, keyId, isoAt(clock))!);
}
