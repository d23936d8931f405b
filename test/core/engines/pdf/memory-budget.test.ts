/**
 * A long PDF's cold helper worker joins only when it fits the memory budget (issue 34;
 * src/core/engines/pdf/pdf-memory-budget.ts): decided from resident memory, the pages left and the budget, not
 * from wall-clock time alone. Counted on injected figures and on the workers a real conversion opens.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  HELPER_BYTES,
  helpersWithinBudget,
  memoryAvailable,
  PAGE_BYTES,
} from "../../../../src/core/engines/pdf/pdf-memory-budget.ts";
import { closeIdlePdfWorkers } from "../../../../src/core/engines/pdf/pdf-client.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";

setDefaultTimeout(240_000);
afterAll(() => closeIdlePdfWorkers());

const MB = 1024 * 1024;

describe("the cold helper's memory budget", () => {
  test("helpers fit while resident memory, the pages still to come and the helpers stay within the budget", () => {
    const at = { rss: 200 * MB, pagesLeft: 1000, budget: 200 * MB + 1000 * PAGE_BYTES + HELPER_BYTES };
    expect(helpersWithinBudget(1, at)).toBe(1);
    expect(helpersWithinBudget(3, at)).toBe(1); // room for one
    expect(helpersWithinBudget(1, { ...at, budget: at.budget - 1 })).toBe(0);
    // Twice the pages left: the same budget no longer has room, whatever the clock says.
    expect(helpersWithinBudget(1, { ...at, pagesLeft: 2000 })).toBe(0);
    expect(helpersWithinBudget(1, { ...at, rss: at.budget })).toBe(0);
    expect(helpersWithinBudget(2, { ...at, budget: at.budget + HELPER_BYTES })).toBe(2);
  });

  test("the memory available is the cgroup's limit when it is below the machine's RAM", () => {
    const limited = memoryAvailable((f) => (f.endsWith("memory.max") ? `${512 * MB}\n` : "max"));
    expect(limited).toBe(512 * MB);
    const unlimited = memoryAvailable((f) => (f.endsWith("memory.max") ? "max\n" : "9223372036854771712"));
    expect(unlimited).toBeGreaterThan(512 * MB); // the machine's RAM
    expect(
      memoryAvailable(() => {
        throw new Error("no cgroup");
      }),
    ).toBe(unlimited);
  });

  test("a 1,000-page file converted alone opens a cold helper within the budget and none past it", async () => {
    const { generatePdf } = await import("../../../../bench/convert.ts");
    const data = await generatePdf(1000, 3);
    const opensWith = async (memoryBudgetBytes: number) => {
      closeIdlePdfWorkers();
      let opens = 0;
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (this: Worker, msg: { op?: string }, ...rest: unknown[]) {
        if (msg?.op === "open") opens++;
        return (post as (...a: unknown[]) => void).call(this, msg, ...rest);
      } as typeof post;
      try {
        const converted = await convertSource(
          { index: 0, filename: "long.pdf", data, split_policy: "inherit" },
          { firstPageNumber: 1, maxPages: null, limits: { memoryBudgetBytes } },
        );
        expect(converted.pages).toHaveLength(1000);
        await converted.close();
        return { opens, text: converted.pages.map((p) => p.text) };
      } finally {
        Worker.prototype.postMessage = post;
        closeIdlePdfWorkers();
      }
    };
    const roomy = await opensWith(64 * 1024 * MB);
    const tight = await opensWith(64 * MB); // below what the process already holds: no room for a helper
    expect(roomy.opens).toBe(2);
    expect(tight.opens).toBe(1);
    expect(tight.text).toEqual(roomy.text); // where pages are read never changes what they say
  });
});
