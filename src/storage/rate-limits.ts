/**
 * Persisted rate-limit counters, one row per (subject, window). The limiter keeps live counters in memory and
 * writes the changed ones here in batches; on start it reads a subject's rows the first time it sees the subject.
 */
import type { Db } from "./db";

export interface CounterRow {
  subject: string;
  window: string;
  window_start: number;
  length_ms: number;
  count: number;
}

export function loadCounters(db: Db, subject: string): CounterRow[] {
  return db.query<CounterRow, [string]>("SELECT * FROM rate_limit_counters WHERE subject = ?").all(subject);
}

/** Writes the rows in one transaction (insert or replace). */
export function saveCounters(db: Db, rows: CounterRow[]): void {
  if (rows.length === 0) return;
  const stmt = db.query(
    `INSERT INTO rate_limit_counters (subject, window, window_start, length_ms, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (subject, window) DO UPDATE SET window_start = excluded.window_start, length_ms = excluded.length_ms, count = excluded.count`,
  );
  db.transaction(() => {
    for (const r of rows) stmt.run(r.subject, r.window, r.window_start, r.length_ms, r.count);
  })();
}

/** Deletes counters whose window ended before `now` (they would be reset on next use anyway). */
export function purgeCounters(db: Db, now: number): number {
  return db.query("DELETE FROM rate_limit_counters WHERE window_start + length_ms < ?").run(now).changes;
}
