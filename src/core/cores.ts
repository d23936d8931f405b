/**
 * How many threads can run at once on this machine (lanes, OCR workers, pdf.js workers are sized by it).
 *
 * Why not os.availableParallelism() alone: Bun answers it from navigator.hardwareConcurrency, and pdf.js, once
 * loaded in a thread (its worker, or a test that imports pdf.js), replaces globalThis.navigator with an object of
 * its own without that member; availableParallelism() then returns undefined, and every count made from it was NaN
 * (a second pdf.js worker was never used after that). os.cpus() does not depend on navigator.
 */
import os from "node:os";

export function cpuCount(): number {
  const n = typeof os.availableParallelism === "function" ? os.availableParallelism() : NaN;
  return Number.isInteger(n) && n > 0 ? n : Math.max(1, os.cpus().length);
}
