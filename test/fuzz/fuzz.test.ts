/**
 * The CI slice of `bun run fuzz` (issue 21): a small seeded run through the real pipeline, in watched worker
 * processes, with 0 crashes, 0 hangs and every input under the memory limit; plus the harness's own promises
 * (same seed → same bytes; an input over the memory limit is caught and reported, not waited for).
 */
import { describe, expect, test } from "bun:test";
import { loadBases } from "../../bench/fuzz/bases";
import { runFuzz } from "../../bench/fuzz/index";
import { mutate } from "../../bench/fuzz/mutate";

const options = {
  count: 12,
  start: 0,
  seed: 21,
  jobs: 1,
  timeLimitMs: 60_000,
  backstopMs: 600_000,
  memoryMb: 1024,
  pageLimit: 2,
  ocr: "null",
  only: null,
  json: true,
  report: null,
  log: null,
};

describe("fuzz harness", () => {
  test("mutations are deterministic per seed and input index", async () => {
    const bases = (await loadBases()).map((b) => b.data);
    expect(bases.length).toBeGreaterThan(50);
    const a = mutate(bases, 21, 7);
    const b = mutate(bases, 21, 7);
    expect(Bun.hash(a.bytes)).toBe(Bun.hash(b.bytes));
    expect(a.ops).toEqual(b.ops);
    const others = [mutate(bases, 21, 8), mutate(bases, 22, 7)].map((m) => Bun.hash(m.bytes));
    expect(others).not.toContain(Bun.hash(a.bytes));
  });

  test("a seeded slice runs with 0 crashes, 0 hangs and peak RSS under 1 GB per input", async () => {
    const summary = await runFuzz(options);
    expect(summary.inputs).toBe(12);
    expect(summary.failures.filter((f) => f.outcome !== "internal")).toEqual([]);
    expect([summary.crashes, summary.hangs, summary.over_memory]).toEqual([0, 0, 0]);
    expect(summary.peak_rss_max_mb).toBeLessThan(1024);
    // Every input ended in one of the pipeline's statuses or a clear error code.
    for (const outcome of Object.keys(summary.outcomes))
      expect(outcome).toMatch(/^(success|partial|failure|internal|error:[a-z_]+)$/);
  }, 600_000);

  test("an input over the memory limit is killed and reported as `memory`; the worker is restarted for the next", async () => {
    // 40 MB is below what a worker holds once the pipeline is loaded: each input's watched worker is killed.
    const summary = await runFuzz({ ...options, count: 2, memoryMb: 40 });
    expect(summary.inputs).toBe(2);
    expect(summary.over_memory).toBe(2);
    expect(summary.failures.map((f) => f.detail)).toEqual(["RSS above 40 MB", "RSS above 40 MB"]);
  }, 300_000);
});
