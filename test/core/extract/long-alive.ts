/**
 * The measurement of long.test.ts "N vs 2N pages", run as a process of its own so that nothing else allocates in it:
 * objects left alive by extractions of N and 2N pages (three of each, interleaved, after a warm-up), printed as JSON.
 */
import { heapStats } from "bun:jsc";
import type { FieldResult } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { LONG, pagesOf } from "./long-pages";

/** Objects alive after a full collection. */
function liveObjects(): number {
  Bun.gc(true);
  return heapStats().objectCount;
}

const kept: Array<Record<string, FieldResult>> = [];
const leftAlive = (count: number): number => {
  const before = liveObjects();
  kept.push(extractFields(pagesOf(count), "invoice", defaultProject));
  return liveObjects() - before;
};
// Warm-up to the steady state: modules, memos and compiled regular expressions, and the caches an extraction fills
// and a longer one lets go (the first N pages left ~585,000 objects that the next 2N let go: a sample of its own).
for (const count of [4, LONG, 2 * LONG]) leftAlive(count);
const sizes = [LONG, 2 * LONG, LONG, 2 * LONG, LONG, 2 * LONG];
const alive = sizes.map((count) => leftAlive(count));
const sameFields = JSON.stringify(Object.keys(kept[4]!)) === JSON.stringify(Object.keys(kept[3]!));
console.log(
  JSON.stringify({
    ofN: alive.filter((_, i) => sizes[i] === LONG),
    of2N: alive.filter((_, i) => sizes[i] === 2 * LONG),
    sameFields,
  }),
);
