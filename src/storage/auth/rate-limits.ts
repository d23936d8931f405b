/**
 * Persisted rate-limit counters, one row per (subject, window). Every counted request reads and writes its
 * subject's rows in one transaction, so every `serve` process sharing the database shares one exact budget, also
 * under concurrent requests (the batching design this replaced let two servers admit 25 of 25 concurrent requests
 * under a limit of 20).
 *
 * Serialisation: SQLite's BEGIN IMMEDIATE (one writer at a time); on PostgreSQL a transaction-scoped advisory lock
 * per subject, so different keys never wait for each other.
 */
import { isPostgres, type Db } from "../schema/db";

export interface CounterRow {
  subject: string;
  window: string;
  window_start: number;
  length_ms: number;
  count: number;
}

/** A window as stored: when it opened, how long it lasts, what it has counted. */
export interface StoredWindow {
  start: number;
  lengthMs: number;
  count: number;
}

export function loadCounters(db: Db, subject: string): CounterRow[] {
  return db.query<CounterRow, [string]>("SELECT * FROM rate_limit_counters WHERE subject = ?").all(subject);
}

/**
 * Reads the subject's windows, lets `decide` look at them, and writes back the windows it returns (none: nothing
 * is counted), all in one serialised transaction.
 */
export function countAtomically<T>(
  db: Db,
  subject: string,
  decide: (stored: Map<string, StoredWindow>) => { result: T; write: Array<{ window: string } & StoredWindow> },
): T {
  const upsert = db.query(
    `INSERT INTO rate_limit_counters (subject, "window", window_start, length_ms, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (subject, "window") DO UPDATE SET window_start = excluded.window_start, length_ms = excluded.length_ms, count = excluded.count`,
  );
  const tx = db.transaction(() => {
    if (isPostgres(db)) db.query("SELECT pg_advisory_xact_lock(hashtext(?))").get(`rate:${subject}`);
    const stored = new Map(
      loadCounters(db, subject).map((r) => [
        r.window,
        { start: r.window_start, lengthMs: r.length_ms, count: r.count },
      ]),
    );
    const { result, write } = decide(stored);
    for (const w of write) upsert.run(subject, w.window, w.start, w.lengthMs, w.count);
    return result;
  });
  return isPostgres(db) ? tx() : tx.immediate();
}

/** Deletes counters whose window ended before `now` (they would be reset on next use anyway). */
export function purgeCounters(db: Db, now: number): number {
  return db.query("DELETE FROM rate_limit_counters WHERE window_start + length_ms < ?").run(now).changes;
}
