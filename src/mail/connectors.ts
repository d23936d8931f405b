/**
 * Mail connector use cases shared by the API and `docproc mail`: create, update, read, delete, report.
 * MUST seal the password with the secret key before storing it and MUST NOT put it in any returned object: the
 * view says only `has_password: true`. Creating or changing a password without DOCPROC_SECRET_KEY is refused.
 */
import { randomUUID } from "node:crypto";
import { DocprocError } from "../core/errors";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import * as store from "../storage/mail/mail-connectors";
import {
  listMailMessages,
  mailMessageCounts,
  type MailMessageRecord,
  type MailMessageState,
} from "../storage/mail/mail-messages";
import { getProject } from "../storage/projects/projects";
import { seal, type SecretKey } from "../storage/auth/secret-box";
import {
  checkConnection,
  ConnectionSettingsSchema,
  CreateConnectorSchema,
  parseWith,
  portOf,
  UpdateConnectorSchema,
  type ConnectionSettings,
} from "./settings";

export interface ConnectorDeps {
  db: Db;
  clock: Clock;
  /** null when DOCPROC_SECRET_KEY is not set: connectors can be read and deleted, not given a password. */
  secretKey: SecretKey | null;
}

export function requireSecretKey(key: SecretKey | null): SecretKey {
  if (!key) {
    throw new DocprocError(
      "invalid_settings",
      "Mail connectors need DOCPROC_SECRET_KEY (32 random bytes, base64: `openssl rand -base64 32`) to store passwords encrypted; it is not set",
    );
  }
  return key;
}

export function connectorView(db: Db, c: store.MailConnectorRecord) {
  const s = ConnectionSettingsSchema.parse(c.settings);
  return {
    connector_id: c.connector_id,
    tenant_id: c.tenant_id,
    project_id: c.project_id,
    name: c.name,
    enabled: c.enabled,
    ...s,
    port: portOf(s),
    has_password: true,
    last_poll_at: c.last_poll_at,
    last_error: c.last_error,
    messages: mailMessageCounts(db, c.connector_id),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export function messageView(m: MailMessageRecord) {
  return {
    uid_validity: m.uid_validity,
    uid: m.uid,
    state: m.state,
    message_id: m.message_id,
    subject: m.subject,
    from: m.from_address,
    transaction_id: m.transaction_id,
    duplicate: m.duplicate === 1,
    attempts: m.attempts,
    error: m.error,
    updated_at: m.updated_at,
  };
}

export function assertProject(db: Db, tenantId: string, projectId: string): void {
  if (!getProject(db, tenantId, projectId))
    throw new DocprocError("not_found", `Project ${projectId} not found in tenant ${tenantId}`);
}

export function listConnectors(db: Db, tenantId: string, projectId: string): store.MailConnectorRecord[] {
  return store.listMailConnectors(db, { tenant_id: tenantId, project_id: projectId });
}

export function createConnector(deps: ConnectorDeps, tenantId: string, projectId: string, body: unknown) {
  assertProject(deps.db, tenantId, projectId);
  const input = parseWith(CreateConnectorSchema, body);
  const { name, enabled, password, ...rest } = input;
  const settings = checkConnection(rest);
  const key = requireSecretKey(deps.secretKey);
  return store.insertMailConnector(deps.db, {
    connector_id: randomUUID(),
    tenant_id: tenantId,
    project_id: projectId,
    name,
    enabled,
    settings,
    password_sealed: seal(password, key),
    now: isoAt(deps.clock),
  });
}

export function requireConnector(db: Db, tenantId: string, projectId: string, id: string): store.MailConnectorRecord {
  const c = store.getMailConnector(db, id);
  if (!c || c.tenant_id !== tenantId || c.project_id !== projectId)
    throw new DocprocError("not_found", `Mail connector ${id} not found in project ${projectId}`);
  return c;
}

/** Fields given replace the stored ones (nested `filter` and `after_import` whole); the rest stays. */
export function updateConnector(deps: ConnectorDeps, tenantId: string, projectId: string, id: string, body: unknown) {
  const cur = requireConnector(deps.db, tenantId, projectId, id);
  const patch = parseWith(UpdateConnectorSchema, body);
  const { name, enabled, password, ...rest } = patch;
  const merged: ConnectionSettings = checkConnection(parseWith(ConnectionSettingsSchema, { ...cur.settings, ...rest }));
  const password_sealed = password === undefined ? undefined : seal(password, requireSecretKey(deps.secretKey));
  return store.updateMailConnector(
    deps.db,
    id,
    { name, enabled, settings: merged, password_sealed },
    isoAt(deps.clock),
  )!;
}

export function deleteConnector(db: Db, tenantId: string, projectId: string, id: string): void {
  requireConnector(db, tenantId, projectId, id);
  store.deleteMailConnector(db, id);
}

const STATES: readonly MailMessageState[] = ["claimed", "imported", "done", "failed"];

export function connectorMessages(
  db: Db,
  tenantId: string,
  projectId: string,
  id: string,
  query: { state?: string; limit?: string },
) {
  requireConnector(db, tenantId, projectId, id);
  const state = query.state as MailMessageState | undefined;
  if (state !== undefined && !STATES.includes(state))
    throw new DocprocError("invalid_input", `state: must be one of ${STATES.join(", ")}`);
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new DocprocError("invalid_input", "limit: must be an integer from 1 to 1000");
  return { items: listMailMessages(db, id, { state, limit }).map(messageView) };
}
