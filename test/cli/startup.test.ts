/** CLI start-up: heavy dependencies load at their first use, not when `docproc process` starts. */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "./helpers";

const ROOT = path.resolve(import.meta.dir, "../..");

test("docproc process loads its pipeline without exceljs, pdf-lib, @zxing/library, tesseract.js, sharp, yaml or pdf.js", async () => {
  // A child process: this test runner has loaded half of node_modules already.
  const script = `
    await import("./src/commands/dispatch");
    await Promise.all([import("./src/cli/process-run"), import("./src/core/pipeline"), import("./src/core/project"),
      import("./src/core/engines/ocr"), import("./src/core/exporters"), import("./src/cli/batch"), import("./src/batch/file-processor"), import("./src/core/runner")]);
    const heavy = ["exceljs", "pdf-lib", "@zxing/library", "tesseract.js", "sharp", "yaml", "pdfjs-dist", "@napi-rs/canvas"];
    const loaded = heavy.filter((name) => Object.keys(require.cache).some((k) => k.includes("/node_modules/" + name + "/")));
    console.log(JSON.stringify({ loaded, modules: Object.keys(require.cache).length }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const { loaded, modules } = JSON.parse(out.trim().split("\n").pop()!) as { loaded: string[]; modules: number };
  expect(loaded).toEqual([]);
  expect(modules).toBeGreaterThan(100); // the pipeline really was imported
}, 30_000);

test("DOCPROC_STAGE_TIMES: the CLI writes each stage's wall time and each kind of thread's CPU seconds at exit", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-stage-times-"));
  try {
    const file = path.join(dir, "times.json");
    const pdf = path.resolve(ROOT, "fixtures/corpora/invoice2data/AmazonWebServices.pdf");
    const run = await runCli(["process", pdf, "--out", path.join(dir, "out")], { env: { DOCPROC_STAGE_TIMES: file } });
    expect(run.code).toBe(0);
    const { stages, threads } = JSON.parse(readFileSync(file, "utf8")) as {
      stages: Record<string, { ms: number; calls: number }>;
      threads: Record<string, number>;
    };
    expect(Object.keys(stages)).toEqual(expect.arrayContaining(["convert", "split", "classify", "extract", "export"]));
    expect(stages.convert).toMatchObject({ calls: 1 });
    expect(stages.extract!.ms).toBeGreaterThan(0);
    // A PDF was read: the main thread and a pdf.js worker both worked (the clock ticks are 10 ms; both need more).
    expect(threads.main).toBeGreaterThan(0);
    expect(threads["pdf.js"]).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
