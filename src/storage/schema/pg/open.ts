/**
 * Opens docproc's PostgreSQL database: connects (connection.ts) and applies the numbered migrations of
 * storage/migrations (their PostgreSQL dialect, migration-dialects.ts) in order, each once, in its own transaction, under a session advisory lock so that servers
 * and workers starting together never race on the schema.
 */
import { DocprocError } from "../../../core/errors";
import { MIGRATIONS } from "../migration-list";
import { applySettingsMigrations } from "../settings-migrate";
import { PgDb, parsePgUrl } from "./connection";

/** Key of the session lock migrations run under ("docmigr"). */
const MIGRATION_LOCK_KEY = 0x646f636d696772;

export function openPostgres(url: string): PgDb {
  const db = new PgDb(parsePgUrl(url));
  try {
    db.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  } catch (err) {
    db.close();
    throw new DocprocError(
      "internal",
      `cannot reach PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  try {
    const schema = db.location.schema;
    if (schema) db.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = new Set(
      db
        .query<{ version: number }, []>("SELECT version FROM schema_migrations")
        .all()
        .map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.transaction(() => {
        db.exec(m.postgres);
        db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
          m.version,
          m.name,
          new Date().toISOString(),
        );
      })();
    }
    // Under the same lock: stored project settings to the current meaning, each project once.
    applySettingsMigrations(db);
  } catch (err) {
    db.close();
    throw err;
  } finally {
    try {
      db.exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    } catch {
      // closed above
    }
  }
  return db;
}

/** The URL without its password, for messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
