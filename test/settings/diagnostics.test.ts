/** Per-thread CPU accounting for the benchmarks (src/settings/diagnostics.ts): what DOCPROC_STAGE_TIMES reports. */
import { expect, test } from "bun:test";
import { processThreads, stageTimesFile, threadCpuSeconds } from "../../src/settings/diagnostics";

test.skipIf(process.platform !== "linux")(
  "threads are grouped by kind, the main thread under the name given, and their CPU adds up",
  () => {
    const until = performance.now() + 150;
    let spin = 0;
    while (performance.now() < until) spin++; // busy on the main thread: it must show
    expect(spin).toBeGreaterThan(0);
    const threads = processThreads(process.pid, "HTTP");
    const main = threads.filter((t) => t.kind === "HTTP");
    expect(main.map((t) => t.tid)).toEqual([String(process.pid)]);
    expect(main[0]!.cpu).toBeGreaterThanOrEqual(0.1);
    expect(threads.every((t) => ["HTTP", "pipeline", "pdf.js", "JIT", "other"].includes(t.kind))).toBe(true);
    const byKind = threadCpuSeconds();
    expect(byKind.main).toBeGreaterThanOrEqual(main[0]!.cpu);
    expect(byKind.HTTP).toBeUndefined();
    expect(processThreads(2 ** 30, "main")).toEqual([]); // no such process
  },
);

test("DOCPROC_STAGE_TIMES names the file, blank counts as unset", () => {
  expect(stageTimesFile({ DOCPROC_STAGE_TIMES: " /tmp/x.json " })).toBe("/tmp/x.json");
  expect(stageTimesFile({ DOCPROC_STAGE_TIMES: "  " })).toBeUndefined();
  expect(stageTimesFile({})).toBeUndefined();
});
