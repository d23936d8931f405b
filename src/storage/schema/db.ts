/**
 * The docproc database: `Db` is what every module in storage/ and queue/ takes and runs plain SQL on. Two engines
 * implement it, chosen by configuration (`openDb`): the embedded default, SQLite in the data directory (bun:sqlite,
 * used as is but for its statement cache), and PostgreSQL (`DOCPROC_DATABASE_URL=postgres://…`, storage/pg/). SQL written for `Db` MUST be
 * portable between the two: `?` parameters, `ON CONFLICT … DO …` instead of `INSERT OR …`, `RETURNING` instead of
 * lastInsertRowid, no SQLite-only functions; where the dialects truly differ, branch on `isPostgres(db)`.
 *
 * SQLite MUST run in WAL mode with a busy timeout, because the server and extra `docproc worker` processes share
 * the file. Each engine MUST apply its numbered migrations in order, each once, inside a transaction.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DocprocError } from "../../core/errors";
import { MIGRATIONS } from "./migration-list";
import { applySettingsMigrations } from "./settings-migrate";
import { startWalCheckpointer, type WalCheckpointer } from "./wal-checkpointer";

export type Binding = string | number | bigint | boolean | null | Uint8Array;

export interface Stmt<R, P extends unknown[]> {
  all(...params: P): R[];
  get(...params: P): R | null;
  run(...params: P): { changes: number; lastInsertRowid: number | bigint };
}

/** A transaction function as bun:sqlite returns it: call it (deferred) or `.immediate()` (take the write lock first). */
export interface TxFn<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
  deferred(...args: A): T;
  exclusive(...args: A): T;
}

/** The subset of bun:sqlite's `Database` docproc uses; storage/pg/ implements the same over PostgreSQL. */
export interface Db {
  query<R = unknown, P extends unknown[] = Binding[]>(sql: string): Stmt<R, P>;
  prepare<R = unknown, P extends unknown[] = Binding[]>(sql: string): Stmt<R, P>;
  exec(sql: string): void;
  transaction<A extends unknown[], T>(fn: (...args: A) => T): TxFn<A, T>;
  readonly inTransaction: boolean;
  close(): void;
  /** Set by the PostgreSQL engine only. */
  readonly dialect?: "postgres";
  /** PostgreSQL: NOTIFY the other processes (delivered at commit); SQLite has no such thing (they poll). */
  notify?(name: "jobs" | "status", payload: string): void;
  /** PostgreSQL: receive the other processes' `notify` calls until closed; SQLite has none (they poll). */
  listen?(handlers: SignalHandlers): Promise<{ close(): Promise<void> }>;
}

/** What a process does when another one NOTIFYs: a new job of `kind`, a status change of a transaction. */
export interface SignalHandlers {
  jobs(kind: string): void;
  status(transactionId: string): void;
}

export const isPostgres = (db: Db): boolean => db.dialect === "postgres";

export interface OpenOptions {
  /** Milliseconds a writer waits for the lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL on a thread of its own instead of inside commits (storage/schema/wal-checkpointer.ts): for the
   * long-running processes, whose commits are on the thread that serves requests. Not for ":memory:".
   */
  backgroundCheckpoints?: boolean;
}

export function openDatabase(file: string, opts: OpenOptions = {}): Db {
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  let db: Database;
  try {
    db = new Database(file, { create: true, strict: true });
  } catch (err) {
    throw new DocprocError("internal", `cannot open database ${file}: ${(err as Error).message}`, { cause: err });
  }
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 10_000))}`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  cacheStatements(db);
  migrate(db);
  if (opts.backgroundCheckpoints && file !== ":memory:") stopOnClose(db, startWalCheckpointer(db, path.resolve(file)));
  return db as unknown as Db;
}

/** Distinct SQL texts kept compiled per connection; past this (IN lists of every length) statements are not kept. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * `query()` returns the connection's compiled statement for a SQL text, compiling it once. bun:sqlite's own cache
 * keeps only about 20 statements and docproc runs some 100 distinct ones, so it compiled most of them again on
 * every call: 27 statements per one-page transaction in the server (issue 18). Same contract as bun's: the same
 * text gives the same statement. `close()` finalizes them first.
 */
function cacheStatements(db: Database): void {
  const statements = new Map<string, ReturnType<Database["prepare"]>>();
  const prepare = db.prepare.bind(db);
  const close = db.close.bind(db);
  Object.assign(db, {
    query(sql: string) {
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = prepare(sql);
        if (statements.size < STATEMENT_CACHE_SIZE) statements.set(sql, stmt);
      }
      return stmt;
    },
    close(throwOnError?: boolean) {
      for (const stmt of statements.values()) stmt.finalize();
      statements.clear();
      return close(throwOnError);
    },
  });
}

function stopOnClose(db: Database, checkpointer: WalCheckpointer): void {
  const close = db.close.bind(db);
  db.close = (throwOnError?: boolean) => {
    checkpointer.stop();
    return close(throwOnError);
  };
}

export function migrate(sqlite: Database): void {
  const db = sqlite;
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
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
      // Another process may have applied it between our read and our lock.
      if (db.query("SELECT 1 FROM schema_migrations WHERE version = ?").get(m.version)) return;
      db.exec(m.sqlite);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
  // Stored project settings to the current meaning, each project once (storage/schema/settings-migrate.ts).
  applySettingsMigrations(db as unknown as Db);
}

const snapshotStatements = new WeakMap<Db, { begin: Stmt<unknown, []>; commit: Stmt<unknown, []> }>();

/**
 * Runs `read` (SELECTs only) in one read transaction. Outside a transaction every statement opens and closes its
 * own WAL snapshot, which is about two thirds of a point read's cost; a request that makes several reads pays it
 * once this way, and they all see the same state. MUST NOT write inside: a deferred read transaction that turns
 * into a writer fails with SQLITE_BUSY_SNAPSHOT when another connection committed meanwhile. Inside an open
 * transaction it simply runs `read`.
 */
export function readSnapshot<T>(db: Db, read: () => T): T {
  // PostgreSQL: a round trip per BEGIN/COMMIT costs more than the snapshot saves; each statement reads committed data.
  if (db.inTransaction || isPostgres(db)) return read();
  let st = snapshotStatements.get(db);
  if (!st) snapshotStatements.set(db, (st = { begin: db.prepare("BEGIN DEFERRED"), commit: db.prepare("COMMIT") }));
  st.begin.run();
  try {
    return read();
  } finally {
    st.commit.run();
  }
}

/** One round trip to the database (health checks): throws when it cannot answer. */
export function ping(db: Db): void {
  db.query("SELECT 1").get();
}

/** Parses a JSON column; a NULL column gives `fallback`. */
export function json<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === "") return fallback;
  return JSON.parse(text) as T;
}
