/**
 * Persisted rate-limit counters, one row per (subject, window). The limiter keeps live counters in memory and
 * merges its new counts in here in batches; on start it reads a subject's rows the first time it sees the subject.
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

/** A process's view of one counter: its total as last known, and how many of those it has not written yet. */
export interface CounterUpdate extends CounterRow {
  pending: number;
}

/**
 * Merges each process's new counts into the stored counters, in one write transaction, and returns the merged rows
 * (what every process sharing the data directory has counted). When the stored window is still open, `pending`
 * is added to it, so two `serve` processes on one data directory share one budget; otherwise this process's
 * window replaces the stored one, which has ended.
 */
export function mergeCounters(db: Db, updates: CounterUpdate[], now: number): CounterRow[] {
  if (updates.length === 0) return [];
  const read = db.query<Pick<CounterRow, "window_start" | "length_ms" | "count">, [string, string]>(
    "SELECT window_start, length_ms, count FROM rate_limit_counters WHERE subject = ? AND window = ?",
  );
  const write = db.query(
    `INSERT INTO rate_limit_counters (subject, window, window_start, length_ms, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (subject, window) DO UPDATE SET window_start = excluded.window_start, length_ms = excluded.length_ms, count = excluded.count`,
  );
  // IMMEDIATE: read-then-write must hold the write lock from the start, or a concurrent writer could slip between.
  return db
    .transaction(() =>
      updates.map((u) => {
        const stored = read.get(u.subject, u.window);
        const open = stored !== null && stored.length_ms === u.length_ms && now < stored.window_start + stored.length_ms;
        const merged: CounterRow = open
          ? { subject: u.subject, window: u.window, window_start: stored.window_start, length_ms: u.length_ms, count: stored.count + u.pending }
          : { subject: u.subject, window: u.window, window_start: u.window_start, length_ms: u.length_ms, count: u.count };
        write.run(merged.subject, merged.window, merged.window_start, merged.length_ms, merged.count);
        return merged;
      }),
    )
    .immediate();
}

/** Deletes counters whose window ended before `now` (they would be reset on next use anyway). */
export function purgeCounters(db: Db, now: number): number {
  return db.query("DELETE FROM rate_limit_counters WHERE window_start + length_ms < ?").run(now).changes;
}
