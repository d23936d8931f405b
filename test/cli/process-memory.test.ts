/**
 * What the main thread holds of a large PDF while `docproc process` runs it (issue 34): a PDF of
 * FILE_BACKED_MIN_BYTES or more is left in its file (pdf-bytes.ts, source-data.ts). Held as one ArrayBuffer for the
 * run, even mapped and never touched, JavaScriptCore counted it as the heap's extra memory and let the heap grow in
 * proportion (2,000 CID pages: 270 of 349 MB of main heap). Run in a child process, as `process` runs a file
 * (readSourceFile, then the file processor), with the heap's extra memory sampled after a full collection at every
 * progress step: it MUST stay far below the file's size.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { FILE_BACKED_MIN_BYTES } from "../../src/core/engines/pdf/pdf-bytes";

const ROOT = path.resolve(import.meta.dir, "../..");
const INVOICE = path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf");
const dir = mkdtempSync(path.join(tmpdir(), "docproc-process-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The child: one file through the processor the CLI uses, the heap's extra memory sampled as it goes. */
const CHILD = `
import { heapStats } from "bun:jsc";
import { readSourceFile } from ${JSON.stringify(path.join(ROOT, "src/core/engines/pdf/pdf-bytes.ts"))};
import { createFileProcessor } from ${JSON.stringify(path.join(ROOT, "src/batch/file-processor.ts"))};
import { defaultProject } from ${JSON.stringify(path.join(ROOT, "src/core/project/index.ts"))};
const [file, outDir] = process.argv.slice(-2);
let peak = 0;
let samples = 0;
const sample = () => {
  Bun.gc(true);
  samples++;
  peak = Math.max(peak, heapStats().extraMemorySize);
};
const processor = createFileProcessor({ project: defaultProject, outDir, source: "cli" });
const bytes = await readSourceFile(file); // held by the caller for the whole run, as process-run.ts holds it
sample();
const run = await processor.run({ file, bytes, transactionId: "memory", metadata: {}, onProgress: sample });
sample();
await processor.close();
console.log(JSON.stringify({ peak, samples, failed: run.failed, error: run.error }));
process.exit(0);
`;

test("a large PDF is not held in the main thread's heap while it is processed", async () => {
  // The invoice with an unreferenced stream that makes the file large enough to be left in its file.
  const doc = await PDFDocument.load(readFileSync(INVOICE));
  doc.context.register(doc.context.stream(new Uint8Array(FILE_BACKED_MIN_BYTES + 1024 * 1024).fill(32)));
  const file = path.join(dir, "large.pdf");
  writeFileSync(file, await doc.save({ useObjectStreams: false }));
  const size = Bun.file(file).size;
  expect(size).toBeGreaterThan(FILE_BACKED_MIN_BYTES);
  const proc = Bun.spawn([process.execPath, "-e", CHILD, file, path.join(dir, "out")], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ code, err: code === 0 ? "" : err.slice(-2000) }).toEqual({ code: 0, err: "" });
  const report = JSON.parse(out.trim().split("\n").at(-1)!) as { peak: number; samples: number; failed: boolean };
  expect(report.failed).toBe(false);
  expect(report.samples).toBeGreaterThan(4); // sampled through the run, not only around it
  // Held (read, shared or mapped), the file alone would be `size` bytes of extra memory.
  expect(report.peak).toBeLessThan(size / 4);
}, 120_000);
