/**
 * `Db` on PostgreSQL. docproc's storage API is synchronous (it was written for bun:sqlite, where a point read costs
 * microseconds and a promise per read would cost more than the read), so this engine keeps that API: one
 * connection thread (thread.ts) owns a Bun.SQL connection, and each statement is a synchronous call into it (the
 * caller sleeps on a shared flag with Atomics.wait and takes the reply with receiveMessageOnPort, the technique of
 * the `synckit` library). Measured on loopback (PostgreSQL 15, 2,000 sequential `SELECT $1` from a throwaway
 * script, not kept): ~65 µs per statement with Bun.SQL
 * awaited directly, ~100–165 µs through the thread. The cost is that a process waits for each statement in turn;
 * processes scale out instead (docs/scaling.md).
 *
 * Transactions keep SQLite's meaning, which the storage code was written against:
 * - `transaction(fn)()` / `.deferred()`: BEGIN … COMMIT (READ COMMITTED); nested calls become savepoints.
 * - `.immediate()` / `.exclusive()`: also take one transaction-scoped advisory lock first, so write transactions
 *   that read then write are serialised across every process, exactly like SQLite's single writer. The hot paths
 *   that must not wait behind it (job claims, rate-limit counters) use row locks or per-key locks instead.
 * A failed statement inside a transaction aborts the whole transaction (PostgreSQL semantics), so `fn` should not
 * catch a database error and carry on; the transaction is rolled back when `fn` throws, and a COMMIT that PostgreSQL
 * turns into a ROLLBACK (fn caught the error) throws instead of passing for a commit.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { DocprocError } from "../../../core/errors";
import type { Binding, Db, SignalHandlers, Stmt, TxFn } from "../db";
import type { BridgeReply, BridgeRequest } from "./protocol";
import { toNumbered } from "./placeholders";
import { listenSignals } from "./signals";

/** Key of the advisory lock `.immediate()` takes (any constant; "docproc" in ASCII). */
export const WRITE_LOCK_KEY = 0x646f6370726f63;

const threadUrl = new URL("./thread.ts", import.meta.url);

export interface PgLocation {
  /** postgres:// URL without docproc's own parameters. */
  url: string;
  /** `?schema=name`: every table lives in that schema (tests give each server its own). */
  schema: string | null;
}

export function parsePgUrl(location: string): PgLocation {
  const u = new URL(location);
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new DocprocError("invalid_settings", `not a postgres:// URL: ${u.protocol}`);
  const schema = u.searchParams.get("schema");
  u.searchParams.delete("schema");
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
    throw new DocprocError("invalid_settings", `schema must be a plain identifier, got ${JSON.stringify(schema)}`);
  return { url: u.toString(), schema };
}

export class PgDb implements Db {
  readonly dialect = "postgres" as const;
  readonly location: PgLocation;
  private readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly replies: MessagePort;
  private readonly statements = new Map<string, Stmt<unknown, Binding[]>>();
  private depth = 0;
  private closed = false;

  constructor(
    location: PgLocation,
    private readonly timeoutMs = 60_000,
  ) {
    this.location = location;
    this.worker = new Worker(threadUrl, {
      workerData: { url: location.url, schema: location.schema, flag: this.flag.buffer },
    });
    this.worker.unref();
    const { port1, port2 } = new MessageChannel();
    this.replies = port1;
    this.worker.postMessage({ op: "port", port: port2 }, [port2]);
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** One statement, synchronously. */
  call(
    op: BridgeRequest["op"],
    sql: string,
    params: unknown[] = [],
  ): { rows: Record<string, unknown>[]; count: number; command: string } {
    if (this.closed) throw new DocprocError("internal", "the database connection is closed");
    Atomics.store(this.flag, 0, 0);
    this.worker.postMessage({ op, sql, params } satisfies BridgeRequest);
    const deadline = Date.now() + this.timeoutMs;
    let reply: { message: BridgeReply } | undefined;
    while (!(reply = receiveMessageOnPort(this.replies) as { message: BridgeReply } | undefined)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new DocprocError("internal", `PostgreSQL did not answer within ${this.timeoutMs / 1000} s`, {
          retryable: true,
        });
      Atomics.wait(this.flag, 0, 0, Math.min(left, 1000));
      Atomics.store(this.flag, 0, 0);
    }
    const r = reply.message;
    if (!r.ok) {
      // Callers written for SQLite recognise a unique violation by its SQLite wording.
      const prefix = r.code === "23505" ? "UNIQUE constraint failed: " : "";
      throw Object.assign(new Error(`${prefix}${r.message}${r.detail ? ` (${r.detail})` : ""}`), { code: r.code });
    }
    return r;
  }

  query<R = unknown, P extends unknown[] = Binding[]>(sql: string): Stmt<R, P> {
    let st = this.statements.get(sql);
    if (!st) {
      const text = toNumbered(sql);
      st = {
        all: (...params) => this.call("query", text, params).rows,
        get: (...params) => this.call("query", text, params).rows[0] ?? null,
        run: (...params) => ({ changes: this.call("query", text, params).count, lastInsertRowid: 0 }),
      };
      this.statements.set(sql, st);
    }
    return st as unknown as Stmt<R, P>;
  }

  prepare<R = unknown, P extends unknown[] = Binding[]>(sql: string): Stmt<R, P> {
    return this.query<R, P>(sql);
  }

  /** The NOTIFY channel for `name`, per schema so that databases sharing a server never wake each other. */
  channel(name: string): string {
    return this.location.schema ? `docproc_${name}_${this.location.schema}` : `docproc_${name}`;
  }

  notify(name: string, payload: string): void {
    this.query("SELECT pg_notify(?, ?)").get(this.channel(name), payload);
  }

  listen(handlers: SignalHandlers): Promise<{ close(): Promise<void> }> {
    return listenSignals(this, handlers);
  }

  exec(sql: string): void {
    this.call("exec", sql);
  }

  transaction<A extends unknown[], T>(fn: (...args: A) => T): TxFn<A, T> {
    const run =
      (lock: boolean) =>
      (...args: A): T => {
        const nested = this.depth > 0;
        const savepoint = `docproc_sp_${this.depth}`;
        this.exec(
          nested ? `SAVEPOINT ${savepoint}` : lock ? `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})` : "BEGIN",
        );
        this.depth++;
        let result: T;
        try {
          result = fn(...args); // stack-safe: the transaction function's own arguments
          if (result instanceof Promise)
            throw new DocprocError("internal", "a database transaction function must be synchronous");
        } catch (err) {
          this.depth--;
          try {
            this.exec(nested ? `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}` : "ROLLBACK");
          } catch {
            // The connection is gone: the server rolled the transaction back itself.
          }
          throw err;
        }
        this.depth--;
        if (nested) this.exec(`RELEASE SAVEPOINT ${savepoint}`);
        else this.commit();
        return result;
      };
    return Object.assign(run(false), { deferred: run(false), immediate: run(true), exclusive: run(true) });
  }

  /**
   * COMMIT, checked: after a failed statement whose error `fn` caught, PostgreSQL answers COMMIT with the tag
   * ROLLBACK and no error. Every write of the transaction is then gone, which the caller MUST learn.
   */
  private commit(): void {
    const { command } = this.call("exec", "COMMIT");
    if (command === "ROLLBACK") {
      throw new DocprocError(
        "internal",
        "PostgreSQL rolled the transaction back at COMMIT: a statement inside it failed and its error was caught, so none of its writes were kept",
      );
    }
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call("close", "");
    } catch {
      // Already gone.
    }
    this.closed = true;
    void this.worker.terminate();
    this.replies.close();
  }
}
