/**
 * Whether a long PDF's cold helper worker fits in memory (issue 34): it was decided by wall-clock waiting alone
 * (pdf-demand.ts), and on 2,000 pages of a CID-font file the helper moved the peak from ~450 to ~600 MB. A helper
 * now keeps only its share of pdf.js's bounds (pdf-worker-gc.ts `readersOf`), so what it adds is its own VM, pdf.js
 * code and share of garbage; it joins only when the run's projected peak with it stays within the memory budget.
 *
 * The projection is the process's resident memory when the decision is taken, plus what the run still adds per
 * page until its export (the pages' text and words, the documents' results: RSS(n) ≈ R0 + F + W + P·n in
 * docs/benchmarks.md), plus HELPER_BYTES per helper. The budget is the configured one (ConvertLimits
 * `memoryBudgetBytes`) or half the memory this process may use (the cgroup's limit in a container, else the
 * machine's RAM): a helper buys ~35% of the wall time on files pdf.js is the slower side of, never a result.
 */
import { readFileSync } from "node:fs";
import { totalmem } from "node:os";

/**
 * What a cold helper adds with its share of the bounds: measured on 2,000 pages of the CID shape (peak 448 MB alone,
 * 507-521 MB with a helper reading a share: ~60-75 MB), the heaviest per-page parse of the bench shapes.
 */
export const HELPER_BYTES = 80 * 1024 * 1024;
/**
 * What a run holds per page converted until its export, in resident memory: ~20 KB a page of live main-thread state
 * and about as much again between collections, ~50 KB an invoice page through the command (docs/benchmarks.md).
 */
export const PAGE_BYTES = 64 * 1024;

/** The memory this process may use: a cgroup (v2 or v1) limit when there is one below the machine's RAM. */
export function memoryAvailable(read: (file: string) => string = (f) => readFileSync(f, "utf8")): number {
  let limit = totalmem();
  for (const file of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    try {
      const value = Number(read(file).trim());
      if (Number.isFinite(value) && value > 0 && value < limit) limit = value;
    } catch {
      // not this cgroup version, or not Linux
    }
  }
  return limit;
}

/** The default budget: half of what the process may use (the rest is the system's and other processes'). */
export const defaultMemoryBudget = (): number => Math.floor(memoryAvailable() / 2);

/** How many of `wanted` helpers fit: the most whose projected peak stays within `budget` bytes. */
export function helpersWithinBudget(wanted: number, at: { rss: number; pagesLeft: number; budget: number }): number {
  const projected = at.rss + Math.max(0, at.pagesLeft) * PAGE_BYTES;
  const room = at.budget - projected;
  return Math.max(0, Math.min(wanted, Math.floor(room / HELPER_BYTES)));
}
