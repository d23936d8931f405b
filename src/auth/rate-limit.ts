/**
 * Rate limiting, in one place: the fixed-window limiter on the database's counters (storage/auth/rate-limits.ts), the
 * windows a principal is counted in (`windowsOf`), and the refusal (`countOrRefuse` throws `rate_limited` with a
 * `RateRefusal`). The guard (guard.ts) calls it for every request; the server only renders the refusal as a 429
 * (server/rate-limit-response.ts).
 *
 * A window opens at a subject's first counted request and lasts `lengthMs`; when it has passed, the next request
 * opens a new one. (Anchoring at the first request, rather than at clock boundaries, means a burst can never get
 * two full windows by straddling a boundary.) A request is allowed only if every window it is counted in has room;
 * a refused request counts in none of them.
 *
 * Exactness: each decision reads and writes the stored counters in one serialised transaction, so the budget is
 * exact across every process sharing the database, concurrent requests included, and survives restarts with
 * nothing lost. Cost: one small write transaction per counted request (bench/auth.ts measures it).
 */
import type { Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import type { Db } from "../storage/schema/db";
import { countAtomically, purgeCounters, type StoredWindow } from "../storage/auth/rate-limits";

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

export interface RateLimiter {
  hit(subject: string, windows: readonly WindowSpec[]): Decision;
  /** Nothing is buffered any more; kept so callers that flush before reading counters stay correct. */
  flush(): void;
  close(): void;
}

/** Expired rows are deleted at start and every this many counted requests. */
const PURGE_EVERY = 10_000;

export function createRateLimiter(opts: { db: Db; clock: Clock }): RateLimiter {
  const { db, clock } = opts;
  let hits = 0;
  purgeCounters(db, clock.now()); // rows of windows that ended while the server was down

  function hit(subject: string, windows: readonly WindowSpec[]): Decision {
    const now = clock.now();
    if (++hits % PURGE_EVERY === 0) purgeCounters(db, now);
    return countAtomically<Decision>(db, subject, (stored) => {
      const live = windows.map((w) => {
        const c = stored.get(w.name);
        const open = c && now < c.start + c.lengthMs && c.lengthMs === w.lengthMs;
        return { w, c: open ? { ...c } : { start: now, lengthMs: w.lengthMs, count: 0 } };
      });
      const exceeded = live.filter(({ w, c }) => c.count >= w.limit);
      if (exceeded.length) {
        // The longest wait is the honest Retry-After when several windows are full.
        const worst = exceeded.reduce((a, b) => (b.c.start + b.c.lengthMs > a.c.start + a.c.lengthMs ? b : a));
        const resetAt = worst.c.start + worst.c.lengthMs;
        return {
          result: {
            allowed: false,
            window: report(worst.w, worst.c),
            retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
          },
          write: [],
        };
      }
      for (const { c } of live) c.count++;
      const tight = live.reduce((a, b) => {
        const ra = a.w.limit - a.c.count;
        const rb = b.w.limit - b.c.count;
        return rb < ra || (rb === ra && b.w.lengthMs < a.w.lengthMs) ? b : a;
      });
      return {
        result: { allowed: true, window: report(tight.w, tight.c), retryAfterSeconds: 0 },
        write: live.map(({ w, c }) => ({ window: w.name, ...c })),
      };
    });
  }

  return {
    hit,
    flush() {},
    close() {},
  };
}

function report(w: WindowSpec, c: StoredWindow): WindowReport {
  return {
    name: w.name,
    limit: w.limit,
    remaining: Math.max(0, w.limit - c.count),
    resetAt: c.start + c.lengthMs,
    lengthMs: w.lengthMs,
  };
}

/** The task-submission window: counted only for requests that submit work. */
export const ASYNC_WINDOW = "async_hour";

/** A principal's request budget (guard.ts: `principal.limits`). */
export interface RateLimits {
  perMinute: number;
  perHour: number;
  asyncPerHour: number;
}

export function windowsOf(limits: RateLimits, submitsWork: boolean): WindowSpec[] {
  const w: WindowSpec[] = [
    { name: "minute", limit: limits.perMinute, lengthMs: 60_000 },
    { name: "hour", limit: limits.perHour, lengthMs: 3600_000 },
  ];
  if (submitsWork) w.push({ name: ASYNC_WINDOW, limit: limits.asyncPerHour, lengthMs: 3600_000 });
  return w;
}

/** Thrown (as DocprocError details) when a limit refuses a request. */
export interface RateRefusal {
  decision: Decision;
  /** The task-submission (async) window refused it. */
  async: boolean;
}

/** Counts one request of `subject` in `windows`; throws `rate_limited` (details: RateRefusal) when one is full. */
export function countOrRefuse(limiter: RateLimiter, subject: string, windows: readonly WindowSpec[]): Decision {
  const rate = limiter.hit(subject, windows);
  if (!rate.allowed) {
    const refusal: RateRefusal = { decision: rate, async: rate.window.name === ASYNC_WINDOW };
    throw new DocprocError("rate_limited", rateMessage(rate), { details: { ...refusal } });
  }
  return rate;
}

export function rateMessage(d: Decision): string {
  const per =
    d.window.lengthMs === 60_000
      ? "minute"
      : d.window.lengthMs === 3600_000
        ? "hour"
        : `${Math.round(d.window.lengthMs / 1000)} seconds`;
  const what = d.window.name === ASYNC_WINDOW ? "task submissions" : "requests";
  return `Rate limit exceeded: ${d.window.limit} ${what} per ${per}. Try again in ${d.retryAfterSeconds} seconds.`;
}
