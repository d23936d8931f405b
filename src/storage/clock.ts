/** Time source for storage and queue. Tests inject a fake clock instead of sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoAt(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

/** A clock tests move by hand. */
export function fakeClock(start = Date.parse("2026-01-01T00:00:00Z")): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}
