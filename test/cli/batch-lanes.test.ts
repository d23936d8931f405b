/**
 * runBatch's lanes: `concurrency` files at once, one more once `extraLane` asks for it (docproc process does when
 * files need OCR, so both OCR workers stay busy while a file's other stages run on the main thread).
 */
import { expect, test } from "bun:test";
import { runBatch, type BatchContext } from "../../src/cli/batch";
import { silentProgress } from "../../src/cli/progress";
import { defaultProject } from "../../src/core/project";

/** A batch whose runs only count how many are in flight (each fails fast: runBatch turns that into an outcome). */
function countingBatch(files: number, concurrency: number, extraLane?: () => boolean) {
  let inFlight = 0;
  const seen: number[] = [];
  const batch: BatchContext = {
    files: Array.from({ length: files }, (_, i) => `/nowhere/file-${i}.png`),
    outDir: "/nowhere",
    concurrency,
    progress: silentProgress,
    project: defaultProject,
    ...(extraLane ? { extraLane } : {}),
    run: async () => {
      seen.push(++inFlight);
      // Several turns of the event loop, so lanes overlap the way real files do.
      for (let k = 0; k < 5; k++) await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      throw new Error("not a real file");
    },
  };
  return { batch, seen };
}

test("without extraLane at most `concurrency` files run at once", async () => {
  const { batch, seen } = countingBatch(8, 2);
  const outcomes = await runBatch(batch);
  expect(outcomes).toHaveLength(8);
  expect(outcomes.every((o) => o.status === "failure")).toBe(true);
  expect(Math.max(...seen)).toBe(2);
});

test("extraLane adds exactly one lane, once it says so, and every file still gets its outcome", async () => {
  let asked = 0;
  const { batch, seen } = countingBatch(8, 2, () => ++asked >= 2);
  const outcomes = await runBatch(batch);
  expect(outcomes.map((o) => o.file)).toEqual(batch.files);
  expect(Math.max(...seen)).toBe(3);
  expect(seen.slice(0, 2)).toEqual([1, 2]); // two lanes until the second finished file
});
