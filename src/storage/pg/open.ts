/**
 * Opens docproc's PostgreSQL database: connects (connection.ts) and applies the numbered migrations of
 * storage/pg/migrations in order, each once, in its own transaction, under a session advisory lock so that servers
 * and workers starting together never race on the schema.
 */
import { DocprocError } from "../../core/errors";
import { PgDb, parsePgUrl } from "./connection";
import init001 from "./migrations/001_init.sql" with { type: "text" };
import auth002 from "./migrations/002_auth.sql" with { type: "text" };
import capture003 from "./migrations/003_capture.sql" with { type: "text" };
import deliveries004 from "./migrations/004_deliveries.sql" with { type: "text" };
import passwords005 from "./migrations/005_source_file_passwords.sql" with { type: "text" };
import review006 from "./migrations/006_review.sql" with { type: "text" };
import mail007 from "./migrations/007_mail.sql" with { type: "text" };
import datasets008 from "./migrations/008_datasets.sql" with { type: "text" };
import lostLeases009 from "./migrations/009_job_lost_leases.sql" with { type: "text" };

/** Same numbers and names as the SQLite set (storage/migrations): one schema history, two dialects. */
export const PG_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  { version: 1, name: "001_init", sql: init001 },
  { version: 2, name: "002_auth", sql: auth002 },
  { version: 3, name: "003_capture", sql: capture003 },
  { version: 4, name: "004_deliveries", sql: deliveries004 },
  { version: 5, name: "005_source_file_passwords", sql: passwords005 },
  { version: 6, name: "006_review", sql: review006 },
  { version: 7, name: "007_mail", sql: mail007 },
  { version: 8, name: "008_datasets", sql: datasets008 },
  { version: 9, name: "009_job_lost_leases", sql: lostLeases009 },
];

/** Key of the session lock migrations run under ("docmigr"). */
const MIGRATION_LOCK_KEY = 0x646f636d696772;

export function openPostgres(url: string): PgDb {
  const db = new PgDb(parsePgUrl(url));
  try {
    db.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  } catch (err) {
    db.close();
    throw new DocprocError("internal", `cannot reach PostgreSQL at ${redact(url)}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const schema = db.location.schema;
    if (schema) db.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    const applied = new Set(db.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((r) => r.version));
    for (const m of PG_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.transaction(() => {
        db.exec(m.sql);
        db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
      })();
    }
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
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
