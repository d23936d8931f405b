/** The thread count docproc sizes its lanes and workers by stays a number after pdf.js is loaded in the thread. */
import { expect, test } from "bun:test";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");

test("cpuCount and the limits made from it survive pdf.js replacing navigator (availableParallelism then fails)", async () => {
  // A child process: loading pdf.js changes this thread's globals for every later test file in it.
  const script = `
    import os from "node:os";
    const before = os.availableParallelism();
    await import("pdfjs-dist/legacy/build/pdf.mjs");
    const { cpuCount } = await import("./src/core/cores.ts");
    const { DEFAULT_LIMITS } = await import("./src/core/convert-limits.ts");
    const { defaultOcrWorkers } = await import("./src/core/engines/ocr/index.ts");
    console.log(JSON.stringify({ before, after: os.availableParallelism() ?? null, cpus: os.cpus().length, count: cpuCount(), pdfWorkers: DEFAULT_LIMITS.pdfWorkers, ocr: defaultOcrWorkers() }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const r = JSON.parse(out.trim().split("\n").pop()!) as Record<string, number | null>;
  // What the workaround is for: if Bun or pdf.js ever stop doing this, the fallback is merely unused.
  if (r.after !== r.before) expect(r.after).toBeNull();
  expect([r.before, r.cpus]).toContain(r.count);
  expect(r.count).toBeGreaterThan(0);
  expect(r.pdfWorkers).toBe(Math.min(4, r.count!));
  expect(r.ocr).toBe(r.count);
}, 30_000);
