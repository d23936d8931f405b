/**
 * Waiting for an event instead of a fixed sleep (issue 36). `waitFor` polls a condition until it holds: the poll
 * interval is the only sleep, and the deadline is a ceiling for a loaded machine, never a measurement. A test that
 * sleeps a fixed time "for something to have happened" is slow when the machine is idle and flaky when it is busy;
 * test/architecture/fixed-waits.test.ts lists the fixed waits that remain, each with its reason.
 */

export interface WaitOptions {
  /** Give up after this long (default 60 s), with `what` and the last value in the error. */
  timeoutMs?: number;
  /** Between two looks (default 20 ms). */
  everyMs?: number;
}

/** What a probe's truthy results can be. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

/** Resolves with the first truthy value `probe` returns; throws after the deadline, naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  opts: WaitOptions = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${String(value)})`);
    await Bun.sleep(opts.everyMs ?? 20);
  }
}

/** Resolves when `output()` (a child's captured stdout/stderr so far) matches `pattern`, with the match. */
export function waitForOutput(
  output: () => string,
  pattern: RegExp | string,
  opts?: WaitOptions,
): Promise<RegExpMatchArray> {
  const re = typeof pattern === "string" ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : pattern;
  return waitFor(`output matching ${re}`, () => output().match(re), opts);
}
