/** CLI start-up: heavy dependencies load at their first use, not when `docproc process` starts. */
import { expect, test } from "bun:test";
import path from "node:path";

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
