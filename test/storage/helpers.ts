import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Db } from "../../src/storage/schema/db";
import { openPostgres } from "../../src/storage/schema/pg/open";
import { testDatabaseUrl } from "../support/postgres";

/**
 * A fresh database in its own temp dir: a SQLite file, or a fresh PostgreSQL schema on the PostgreSQL test run
 * (test/support/postgres.ts). `connect()` opens a second connection to the same database (a second process).
 * Call cleanup() in afterEach.
 */
export function freshDb(): { db: Db; dir: string; connect(): Db; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-db-"));
  const url = testDatabaseUrl();
  const connect = () => (url ? openPostgres(url) : openDatabase(path.join(dir, "docproc.db")));
  const db = connect();
  return {
    db,
    dir,
    connect,
    cleanup() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
