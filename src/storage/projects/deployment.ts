/**
 * Settings of the whole deployment, kept in the database so every process sees them (table deployment_settings).
 *
 * `public_url`: webhook payloads carry absolute download links (the spec's manifest_url and download_url), built
 * from DOCPROC_PUBLIC_URL, else from the address `serve` listens on. A `docproc worker` listens nowhere, so without
 * DOCPROC_PUBLIC_URL of its own it takes the base its deployment's servers recorded here: it sends the same links
 * a server's own workers would, instead of dropping the notification.
 */
import type { Db } from "../schema/db";

/**
 * Records the base URL a server builds links from. A configured one (DOCPROC_PUBLIC_URL) always replaces the row;
 * a listen address replaces only another listen address, so one server without the variable cannot undo it.
 */
export function recordPublicUrl(db: Db, url: string, configured: boolean, now: string): void {
  db.query(
    `INSERT INTO deployment_settings (key, value, configured, updated_at) VALUES ('public_url', ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, configured = excluded.configured, updated_at = excluded.updated_at
     WHERE excluded.configured = 1 OR deployment_settings.configured = 0`,
  ).run(url, configured ? 1 : 0, now);
}

/** The base URL the deployment's servers recorded; null when no server has started on this database. */
export function recordedPublicUrl(db: Db): string | null {
  return (
    db.query<{ value: string }, []>("SELECT value FROM deployment_settings WHERE key = 'public_url'").get()?.value ??
    null
  );
}

/** Whether this deployment hands out links: a capture token was ever minted, or a project sends webhooks. */
export function publicLinksInUse(db: Db): { capture: boolean; webhooks: boolean } {
  const capture = db.query<{ one: number }, []>("SELECT 1 AS one FROM capture_tokens LIMIT 1").get() != null;
  const webhooks =
    db
      .query<{ one: number }, []>(`SELECT 1 AS one FROM projects WHERE settings LIKE '%"webhook_url":"%' LIMIT 1`)
      .get() != null;
  return { capture, webhooks };
}

/** How many tenants, clients, live keys, users and projects the deployment holds (`POST /admin/reload`). */
export function configurationCounts(db: Db): {
  tenants: number;
  clients: number;
  active_api_keys: number;
  users: number;
  projects: number;
} {
  const count = (sql: string) => db.query<{ n: number }, []>(sql).get()!.n;
  return {
    tenants: count("SELECT COUNT(*) AS n FROM tenants"),
    clients: count("SELECT COUNT(*) AS n FROM clients"),
    active_api_keys: count("SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL"),
    users: count("SELECT COUNT(*) AS n FROM users"),
    projects: count("SELECT COUNT(*) AS n FROM projects"),
  };
}
