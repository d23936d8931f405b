/**
 * Time source for the queue, auth, mail, capture and server (it lives in core, the ground floor, so that each of
 * them imports it downwards). Tests inject a fake clock instead of sleeping: its timers (worker heartbeats, polls,
 * job time limits, webhook retry wake-ups) fire when the test advances it, never on wall time.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Calls fn once, when this clock has moved `ms` past now; returns a function that cancels it. MUST NOT call fn
   * while now() is still before the due time. Optional: a clock without it (a bare `{ now }`) gets wall-clock
   * timers through `after`/`every`/`sleep`.
   */
  schedule?(fn: () => void, ms: number, opts?: TimerOptions): () => void;
}

export interface TimerOptions {
  /** Wall-clock timers only: do not keep the process alive for this timer (housekeeping, optional wake-ups). */
  unref?: boolean;
}

/** A wall-clock timer that re-arms if it fires early by Date.now() (setTimeout may fire up to ~1 ms early). */
function wallTimer(fn: () => void, ms: number, opts: TimerOptions = {}): () => void {
  const due = Date.now() + Math.max(0, ms);
  let timer: ReturnType<typeof setTimeout>;
  const arm = (wait: number) => {
    timer = setTimeout(() => {
      const left = due - Date.now();
      if (left > 0) arm(left);
      else fn();
    }, wait);
    if (opts.unref) timer.unref?.();
  };
  arm(Math.max(0, ms));
  return () => clearTimeout(timer);
}

export const systemClock: Clock = { now: () => Date.now(), schedule: wallTimer };

export function isoAt(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

/** Calls fn once after `ms` of the clock's time; returns a cancel function. */
export function after(clock: Clock, ms: number, fn: () => void, opts?: TimerOptions): () => void {
  return (clock.schedule ?? wallTimer).call(clock, fn, ms, opts);
}

/** Calls fn every `ms` of the clock's time (each period counted from the previous call); returns a stop function. */
export function every(clock: Clock, ms: number, fn: () => void, opts?: TimerOptions): () => void {
  let stopped = false;
  let cancel = () => {};
  const arm = () => {
    cancel = after(
      clock,
      ms,
      () => {
        if (stopped) return;
        arm();
        fn();
      },
      opts,
    );
  };
  arm();
  return () => {
    stopped = true;
    cancel();
  };
}

/** Resolves after `ms` of the clock's time, or at once when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const cancel = after(clock, ms, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way, in due order, at its due time. */
  advance(ms: number): void;
  /** Moves time to `ms` (firing the timers due by then when it moves forward). */
  set(ms: number): void;
  /**
   * Like `advance`, but lets asynchronous work run between timers (a macrotask turn before each one), so a loop that
   * re-arms its timer after an await (a worker's poll) is fired again within the same stretch, as on wall time.
   */
  tick(ms: number): Promise<void>;
  /** Timers waiting to fire (a test can check that something is scheduled before advancing). */
  pending(): number;
}

/** A clock tests move by hand. Its timers run synchronously inside `advance`. */
export function fakeClock(start = Date.parse("2026-01-01T00:00:00Z")): FakeClock {
  let t = start;
  let seq = 0;
  const timers = new Map<number, { due: number; seq: number; fn: () => void }>();
  /** Fires the earliest timer due by `target` (at its due time); false when there is none. */
  const fireNext = (target: number): boolean => {
    let next: [number, { due: number; seq: number; fn: () => void }] | undefined;
    for (const e of timers)
      if (
        e[1].due <= target &&
        (!next || e[1].due < next[1].due || (e[1].due === next[1].due && e[1].seq < next[1].seq))
      )
        next = e;
    if (!next) return false;
    timers.delete(next[0]);
    t = Math.max(t, next[1].due);
    next[1].fn();
    return true;
  };
  const moveTo = (target: number) => {
    while (fireNext(target));
    t = target;
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => t,
    schedule(fn, ms) {
      const id = ++seq;
      timers.set(id, { due: t + Math.max(0, ms), seq: id, fn });
      return () => void timers.delete(id);
    },
    advance: (ms) => moveTo(t + ms),
    async tick(ms) {
      const target = t + ms;
      do await turn();
      while (fireNext(target));
      t = target;
      await turn();
    },
    set: (ms) => (ms >= t ? moveTo(ms) : void (t = ms)),
    pending: () => timers.size,
  };
}
