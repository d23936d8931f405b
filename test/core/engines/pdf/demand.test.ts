/**
 * When a long PDF's text extraction takes a second pdf.js worker (src/core/engines/pdf/pdf-demand.ts): the meter counts
 * only the time every extraction loop waits at once, on an injected clock.
 */
import { describe, expect, test } from "bun:test";
import { HELPER_IDLE_SHARE, WaitMeter, helpersWanted } from "../../../../src/core/engines/pdf/pdf-demand.ts";

/** A promise with its resolve, for driving the loops by hand. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("helper demand", () => {
  test("helpers are wanted from the idle share on, never for an empty window", () => {
    expect(helpersWanted(HELPER_IDLE_SHARE * 100, 100)).toBe(true);
    expect(helpersWanted(HELPER_IDLE_SHARE * 100 - 1, 100)).toBe(false);
    expect(helpersWanted(0, 0)).toBe(false);
  });

  test("time counts as idle only while both loops wait, and the window restarts", async () => {
    let now = 0;
    const meter = new WaitMeter(2, () => now);
    // Loop A waits 10 ms alone (loop B is busy with its page): the thread is not idle.
    const a = deferred<number>();
    const waitA = meter.wait(a.promise);
    now = 10;
    // Loop B waits too: from here the thread has nothing to do, for 30 ms.
    const b = deferred<number>();
    const waitB = meter.wait(b.promise);
    now = 40;
    a.resolve(1);
    expect(await waitA).toBe(1);
    now = 100;
    b.resolve(2);
    expect(await waitB).toBe(2);
    // 30 ms idle of 100: below the share.
    expect(HELPER_IDLE_SHARE).toBeGreaterThan(0.3);
    expect(meter.helpersWanted()).toBe(false);
    meter.restart();
    const c = deferred();
    const d = deferred();
    const waits = [meter.wait(c.promise), meter.wait(d.promise)];
    now = 180;
    c.resolve();
    d.resolve();
    await Promise.all(waits);
    now = 200;
    // 80 ms idle of the 100 since the restart.
    expect(meter.helpersWanted()).toBe(true);
  });

  test("a failed request still ends the wait", async () => {
    let now = 0;
    const meter = new WaitMeter(1, () => now);
    const failing = meter.wait(Promise.reject(new Error("pdf.js gave up")));
    now = 50;
    await expect(failing).rejects.toThrow("pdf.js gave up");
    now = 100;
    // 50 ms of 100 waited.
    expect(HELPER_IDLE_SHARE).toBeLessThanOrEqual(0.5);
    expect(meter.helpersWanted()).toBe(true);
  });
});
