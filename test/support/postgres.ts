/**
 * The database back end the test run uses: `DOCPROC_TEST_BACKEND=postgres` runs the server, queue, auth, capture,
 * webhook and storage suites on PostgreSQL (the same test files: `npm test` runs them twice, see package.json).
 *
 * The server: `DOCPROC_TEST_POSTGRES_URL` when set (an operator's own server), otherwise a private one this
 * process starts from Debian's `postgresql` package (initdb in a temp directory, loopback port, fsync off) and
 * stops at exit. Each test database is a fresh schema (`?schema=`), so tests never see each other's rows.
 */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isPostgres, openDatabase, type Db } from "../../src/storage/db";
import { openPostgres } from "../../src/storage/pg/open";

export const TEST_BACKEND: "sqlite" | "postgres" = process.env.DOCPROC_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";

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

function binDir(): string {
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates = [
    ...(existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort().reverse().map((v) => `/usr/lib/postgresql/${v}/bin`) : []),
    fromConfig.status === 0 ? fromConfig.stdout.trim() : "",
  ];
  const dir = candidates.find((d) => d && existsSync(path.join(d, "initdb")) && existsSync(path.join(d, "pg_ctl")));
  if (!dir) throw new Error("DOCPROC_TEST_BACKEND=postgres needs PostgreSQL's server (Debian: apt install postgresql) or DOCPROC_TEST_POSTGRES_URL");
  return dir;
}

function freePort(): number {
  // Synchronous: ask the kernel for a port through a child (a server here would need the event loop).
  const r = spawnSync(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

function startPrivateServer(): string {
  const bin = binDir();
  const root = mkdtempSync(path.join(tmpdir(), "docproc-pg-"));
  const data = path.join(root, "data");
  // PostgreSQL refuses to run as root: the Debian package's `postgres` user owns the cluster then.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout), Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout));
  const run = (cmd: string, args: string[]) => {
    const r = asRoot ? spawnSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { encoding: "utf8" }) : spawnSync(path.join(bin, cmd), args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "-N"]);
  const port = freePort();
  const opts = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run("pg_ctl", ["-D", data, "-o", opts, "-l", path.join(root, "log"), "-w", "start"]);
  process.on("exit", () => {
    spawnSync(asRoot ? "runuser" : path.join(bin, "pg_ctl"), asRoot ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"] : ["-D", data, "-m", "immediate", "stop"]);
    rmSync(root, { recursive: true, force: true });
  });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/**
 * Everything the database holds, as text, to assert a secret is not in it: the SQLite file itself (after a
 * checkpoint), or on PostgreSQL every row of the named tables.
 */
export function storedText(db: Db, dataDir: string, tables: string[]): string {
  if (isPostgres(db)) return tables.map((t) => db.query<{ dump: string }, []>(`SELECT COALESCE(string_agg(r::text, ' '), '') AS dump FROM ${t} r`).get()!.dump).join(" ");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return readFileSync(path.join(dataDir, "docproc.db")).toString("latin1");
}

/** The database of a data directory a server under test uses (SQLite file, or its PostgreSQL schema). */
export function openTestDatabase(dataDir: string): Db {
  const url = testDatabaseUrl(dataDir);
  return url ? openPostgres(url) : openDatabase(path.join(dataDir, "docproc.db"));
}
