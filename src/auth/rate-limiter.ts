/**
 * Fixed-window rate limiter with counters kept in memory and written to SQLite in batches.
 *
 * A window opens at a subject's first counted request and lasts `lengthMs`; when it has passed, the next request
 * opens a new one. (Anchoring at the first request, rather than at clock boundaries, means a burst can never get
 * two full windows by straddling a boundary.) A request is allowed only if every window it is counted in has room;
 * a refused request counts in none of them.
 *
 * Persistence: a subject's rows are read the first time the subject is seen, new counts are merged into them at
 * most `flushMs` later (on the next check after that, or by a background timer), and on close(). A crash therefore
 * forgets at most the last `flushMs` of counts. Several processes on one data directory share the stored counters:
 * each merge adds this process's new counts and brings back the others', so a shared budget can be overrun by at
 * most what the other processes counted in their last `flushMs`.
 */
import type { Clock } from "../storage/clock";
import type { Db } from "../storage/db";
import { loadCounters, mergeCounters, purgeCounters, type CounterUpdate } from "../storage/rate-limits";

export interface WindowSpec {
  /** Stable name, persisted: minute, hour, async_hour, login... */
  name: string;
  limit: number;
  lengthMs: number;
}

export interface WindowReport {
  name: string;
  limit: number;
  /** Left after this request. */
  remaining: number;
  /** Epoch ms at which the window resets. */
  resetAt: number;
  lengthMs: number;
}

export interface Decision {
  allowed: boolean;
  /** The exceeded window when refused, otherwise the tightest (fewest remaining; the shorter on a tie). */
  window: WindowReport;
  /** Whole seconds until the refusing window resets (0 when allowed). */
  retryAfterSeconds: number;
}

interface Counter {
  start: number;
  lengthMs: number;
  /** Everything counted in this window, as far as this process knows. */
  count: number;
  /** Counted here and not merged into the stored counter yet. */
  pending: number;
}

export interface RateLimiter {
  hit(subject: string, windows: readonly WindowSpec[]): Decision;
  /** Writes changed counters now. */
  flush(): void;
  /** Flushes and stops the background timer. */
  close(): void;
}

export function createRateLimiter(opts: { db: Db; clock: Clock; flushMs: number }): RateLimiter {
  const { db, clock, flushMs } = opts;
  /** Per subject: its windows, and when this process last read them from or merged them into the database. */
  const subjects = new Map<string, { windows: Map<string, Counter>; syncedAt: number }>();
  const dirty = new Set<string>(); // `${subject}\u0000${window}`
  let lastFlush = clock.now();
  let closed = false;
  purgeCounters(db, lastFlush); // rows of windows that ended while the server was down

  /**
   * A subject's counters, re-read when this process has not synchronised them for `flushMs`: another process on
   * the same data directory may have counted meanwhile. Counts of this process not merged yet are kept on top.
   */
  function countersOf(subject: string, now: number): Map<string, Counter> {
    let s = subjects.get(subject);
    if (s && now - s.syncedAt < flushMs) return s.windows;
    if (!s) subjects.set(subject, (s = { windows: new Map(), syncedAt: now }));
    const m = s.windows;
    for (const r of loadCounters(db, subject)) {
      const open = now < r.window_start + r.length_ms;
      const c = m.get(r.window);
      if (!c) {
        if (open) m.set(r.window, { start: r.window_start, lengthMs: r.length_ms, count: r.count, pending: 0 });
      } else if (open && c.lengthMs === r.length_ms) {
        c.start = r.window_start;
        c.count = r.count + c.pending;
      }
    }
    s.syncedAt = now;
    return m;
  }

  function flush(): void {
    lastFlush = clock.now();
    if (dirty.size === 0) return;
    const updates: CounterUpdate[] = [];
    const counters: Counter[] = [];
    for (const k of dirty) {
      const [subject, window] = k.split("\u0000") as [string, string];
      const c = subjects.get(subject)?.windows.get(window);
      if (!c) continue;
      updates.push({ subject, window, window_start: c.start, length_ms: c.lengthMs, count: c.count, pending: c.pending });
      counters.push(c);
    }
    mergeCounters(db, updates, lastFlush).forEach((row, i) => {
      const c = counters[i]!;
      c.start = row.window_start;
      c.count = row.count;
      c.pending = 0;
      subjects.get(row.subject)!.syncedAt = lastFlush;
    });
    dirty.clear();
    evictIdle(lastFlush);
  }

  /** Drops in-memory subjects whose windows have all ended (their rows are already written). */
  function evictIdle(now: number): void {
    if (subjects.size < 10_000) return;
    for (const [subject, s] of subjects) {
      if ([...s.windows.values()].every((c) => now >= c.start + c.lengthMs)) subjects.delete(subject);
    }
    purgeCounters(db, now);
  }

  const timer = setInterval(() => {
    try {
      if (dirty.size) flush();
    } catch {
      // The database was closed under us (tests, shutdown): nothing left to write to.
      clearInterval(timer);
    }
  }, flushMs);
  timer.unref?.();

  function hit(subject: string, windows: readonly WindowSpec[]): Decision {
    const now = clock.now();
    const m = countersOf(subject, now);
    const live = windows.map((w) => {
      let c = m.get(w.name);
      if (!c || now >= c.start + c.lengthMs || c.lengthMs !== w.lengthMs) {
        c = { start: now, lengthMs: w.lengthMs, count: 0, pending: 0 };
        m.set(w.name, c);
      }
      return { w, c };
    });
    const exceeded = live.filter(({ w, c }) => c.count >= w.limit);
    if (exceeded.length) {
      // The longest wait is the honest Retry-After when several windows are full.
      const worst = exceeded.reduce((a, b) => (b.c.start + b.c.lengthMs > a.c.start + a.c.lengthMs ? b : a));
      const resetAt = worst.c.start + worst.c.lengthMs;
      return { allowed: false, window: report(worst.w, worst.c), retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
    }
    for (const { w, c } of live) {
      c.count++;
      c.pending++;
      dirty.add(`${subject}\u0000${w.name}`);
    }
    const tight = live.reduce((a, b) => {
      const ra = a.w.limit - a.c.count;
      const rb = b.w.limit - b.c.count;
      return rb < ra || (rb === ra && b.w.lengthMs < a.w.lengthMs) ? b : a;
    });
    if (now - lastFlush >= flushMs && !closed) flush();
    return { allowed: true, window: report(tight.w, tight.c), retryAfterSeconds: 0 };
  }

  return {
    hit,
    flush,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      flush();
    },
  };
}

function report(w: WindowSpec, c: Counter): WindowReport {
  return { name: w.name, limit: w.limit, remaining: Math.max(0, w.limit - c.count), resetAt: c.start + c.lengthMs, lengthMs: w.lengthMs };
}
