import { describe, expect, test } from "bun:test";
import { RequestGate } from "../../../src/core/convert/request-gate";

/** Settles pending promise callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Loops as convert/pdf.ts runs them against a fake worker that answers only when told to: what goes out when, and
 * which requests go out together (one `postMessage` burst wakes the worker once).
 */
function harness(loops: number, burst: number, pages: number) {
  const gate = new RequestGate(burst);
  const asked: number[] = [];
  const answer = new Map<number, () => void>();
  let next = 1;
  const drain = async () => {
    try {
      while (next <= pages) {
        await gate.turn();
        if (next > pages) break;
        const n = next++;
        asked.push(n);
        gate.asked();
        await new Promise<void>((resolve) => answer.set(n, resolve));
        gate.answered();
      }
    } finally {
      gate.left();
    }
  };
  const done = Promise.all(Array.from({ length: loops }, drain));
  const reply = async (n: number) => {
    answer.get(n)!();
    answer.delete(n);
    await settle();
  };
  return { asked, reply, done, outstanding: () => [...answer.keys()] };
}

describe("RequestGate: loops ask for pages together", () => {
  test("all loops ask at first; then one loop answered waits until a burst of them has its page", async () => {
    const h = harness(8, 4, 40);
    await settle();
    expect(h.asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const n of [1, 2, 3]) await h.reply(n);
    expect(h.asked).toHaveLength(8); // three loops wait, five requests are out
    await h.reply(4);
    expect(h.asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]); // the fourth opens the gate for all four
  });

  test("a loop never waits when no other request is out (the thread would idle)", async () => {
    const h = harness(2, 4, 10);
    await settle();
    expect(h.asked).toEqual([1, 2]);
    await h.reply(1);
    expect(h.asked).toEqual([1, 2]); // one waits, one request is out
    await h.reply(2);
    expect(h.asked).toEqual([1, 2, 3, 4]); // nothing out: both ask
  });

  test("every page is asked for exactly once and all loops end, whatever order the answers come in", async () => {
    const h = harness(8, 4, 103);
    await settle();
    let turn = 0;
    while (h.outstanding().length) {
      const out = h.outstanding();
      await h.reply(out[(turn++ * 7) % out.length]!);
    }
    await h.done;
    expect([...h.asked].sort((a, b) => a - b)).toEqual(Array.from({ length: 103 }, (_, i) => i + 1));
  });

  test("loops that end release the ones waiting (fewer loops left than a burst)", async () => {
    const h = harness(8, 4, 9);
    await settle();
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) if (h.outstanding().includes(n)) await h.reply(n);
    while (h.outstanding().length) await h.reply(h.outstanding()[0]!);
    await h.done;
    expect(h.asked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
