/**
 * runBatch's lanes: `concurrency` files at once, more once `lanes` asks for them; `docproc process` asks for one
 * more than cores once files need OCR and two per core while every file is a short born-digital one (lanesFor).
 */
import { expect, test } from "bun:test";
import { runBatch, type BatchContext, type BatchFileOutcome } from "../../src/cli/batch";
import { lanesFor } from "../../src/cli/process-run";
import { silentProgress } from "../../src/cli/progress";
import { defaultProject } from "../../src/core/project";

/** A batch whose runs only count how many are in flight (each fails fast: runBatch turns that into an outcome). */
function countingBatch(files: number, concurrency: number, lanes?: BatchContext["lanes"]) {
  let inFlight = 0;
  const seen: number[] = [];
  const batch: BatchContext = {
    files: Array.from({ length: files }, (_, i) => `/nowhere/file-${i}.png`),
    outDir: "/nowhere",
    concurrency,
    progress: silentProgress,
    project: defaultProject,
    ...(lanes ? { lanes } : {}),
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

test("without lanes at most `concurrency` files run at once", async () => {
  const { batch, seen } = countingBatch(8, 2);
  const outcomes = await runBatch(batch);
  expect(outcomes).toHaveLength(8);
  expect(outcomes.every((o) => o.status === "failure")).toBe(true);
  expect(Math.max(...seen)).toBe(2);
});

test("lanes are added up to what `lanes` asks for after a file, never more, and every file still gets its outcome", async () => {
  const asked: number[] = [];
  const { batch, seen } = countingBatch(12, 2, (finished) => {
    asked.push(finished.length);
    return finished.length >= 2 ? 4 : 1; // below `concurrency`: changes nothing
  });
  const outcomes = await runBatch(batch);
  expect(outcomes.map((o) => o.file)).toEqual(batch.files);
  expect(Math.max(...seen)).toBe(4);
  expect(seen.slice(0, 2)).toEqual([1, 2]); // two lanes until the second finished file
  expect(asked[0]).toBe(1); // asked with the finished outcomes only
});

const outcome = (text_source: string, page_count: number, status: BatchFileOutcome["status"] = "success") =>
  ({ text_source, page_count, status }) as BatchFileOutcome;

test("docproc process: two lanes per core while files are short born-digital ones, cores + 1 once OCR ran, else cores", () => {
  expect(lanesFor(2, false, [])).toBe(2);
  expect(lanesFor(2, false, [outcome("text layer", 1), outcome("text layer", 8)])).toBe(4);
  expect(lanesFor(2, false, [outcome("text layer", 1), outcome("text layer", 9)])).toBe(2); // a long PDF: a worker of its own
  expect(lanesFor(2, false, [outcome("text layer", 1), outcome("mixed", 2)])).toBe(2);
  expect(lanesFor(2, false, [outcome("text layer", 1), outcome("-", 0, "failure")])).toBe(4); // a failed file says nothing
  expect(lanesFor(2, true, [outcome("text layer", 1)])).toBe(3);
});
