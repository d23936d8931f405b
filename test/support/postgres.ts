/**
 * The database back end the test run uses: `DOCPROC_TEST_BACKEND=postgres` runs the server, queue, auth, capture,
 * webhook and storage suites on PostgreSQL (the same test files: `npm test` runs them twice, see package.json).
 *
 * The server: `DOCPROC_TEST_POSTGRES_URL` when set (an operator's own server), otherwise a private one this
 * process starts from Debian's `postgresql` package (initdb in a temp directory, loopback port, fsync off) and
 * stops at exit. Each test database is a fresh schema (`?schema=`), so tests never see each other's rows.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isPostgres, openDatabase, type Db } from "../../src/storage/schema/db";
import { openPostgres } from "../../src/storage/schema/pg/open";
import { startPostgres } from "../../scripts/postgres-server";

export const TEST_BACKEND: "sqlite" | "postgres" =
  process.env.DOCPROC_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";

let server: string | null = null;
let schemas = 0;

const byDataDir = new Map<string, string>();

/**
 * The database URL for a data directory on the PostgreSQL run (the same one every time for the same directory, so a
 * restarted server or a CLI command on that directory finds its rows), a fresh one without a directory; undefined
 * on the SQLite run.
 */
export function testDatabaseUrl(dataDir?: string): string | undefined {
  if (TEST_BACKEND !== "postgres") return undefined;
  if (!dataDir) return freshPostgresUrl();
  const key = path.resolve(dataDir);
  let url = byDataDir.get(key);
  if (!url) byDataDir.set(key, (url = freshPostgresUrl()));
  return url;
}

/** Environment for a child process on `dataDir` (`docproc serve --data dir`, admin commands). */
export function databaseEnv(dataDir: string | undefined): Record<string, string> {
  const url = dataDir ? testDatabaseUrl(dataDir) : undefined;
  return url ? { DOCPROC_DATABASE_URL: url } : {};
}

/** A fresh schema on the test PostgreSQL server (started on first use). */
export function freshPostgresUrl(): string {
  server ??= process.env.DOCPROC_TEST_POSTGRES_URL || startPrivateServer();
  const u = new URL(server);
  u.searchParams.set("schema", `t${process.pid}_${++schemas}_${Math.random().toString(36).slice(2, 8)}`);
  return u.toString();
}

function startPrivateServer(): string {
  // Stopped when this process is gone (bun test runs no "exit" handlers; see scripts/postgres-server.ts).
  const server = startPostgres({ ownerPid: process.pid });
  process.on("exit", () => server.stop());
  return server.url;
}

/**
 * Everything the database holds, as text, to assert a secret is not in it: the SQLite file itself (after a
 * checkpoint), or on PostgreSQL every row of the named tables.
 */
export function storedText(db: Db, dataDir: string, tables: string[]): string {
  if (isPostgres(db))
    return tables
      .map(
        (t) =>
          db.query<{ dump: string }, []>(`SELECT COALESCE(string_agg(r::text, ' '), '') AS dump FROM ${t} r`).get()!
            .dump,
      )
      .join(" ");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return readFileSync(path.join(dataDir, "docproc.db")).toString("latin1");
}

/** The database of a data directory a server under test uses (SQLite file, or its PostgreSQL schema). */
export function openTestDatabase(dataDir: string): Db {
  const url = testDatabaseUrl(dataDir);
  return url ? openPostgres(url) : openDatabase(path.join(dataDir, "docproc.db"));
}
