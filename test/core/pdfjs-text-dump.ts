/**
 * Test helper, run as a child process by convert-pdf-workers.test.ts: prints the pdf.js text content (items and
 * styles) of every page of the PDFs given, using pdf.worker.mjs either as shipped (`stock`) or with the speed
 * patches of src/core/convert/pdfjs-speed-patches.ts (`speed`). One process each: pdf.js keeps the first worker
 * module it is given for the life of the process.
 */
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatches, SPEED_PATCHES } from "../../src/core/convert/pdfjs-speed-patches.ts";

const [mode, ...files] = process.argv.slice(2);
const source = readFileSync(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir), "utf8");
const patched = applyPatches(source, [], mode === "speed" ? SPEED_PATCHES : [])!;
if (mode === "speed" && patched === source) throw new Error("no speed patch applies to this pdf.js");
const file = join(mkdtempSync(join(tmpdir(), "docproc-pdfjs-test-")), "pdf.worker.mjs");
writeFileSync(file, patched);
(globalThis as Record<string, unknown>).pdfjsWorker = { WorkerMessageHandler: (await import(file)).WorkerMessageHandler };
const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");

const out: unknown[] = [];
for (const path of files) {
  const task = pdfjs.getDocument({ data: new Uint8Array(readFileSync(path)), verbosity: 0, stopAtErrors: false, disableFontFace: true, useSystemFonts: false });
  try {
    const doc = await task.promise;
    for (let n = 1; n <= Math.min(doc.numPages, 5); n++) {
      const page = await doc.getPage(n);
      out.push({ path, n, content: await page.getTextContent({ includeMarkedContent: false }) });
    }
  } catch (err) {
    out.push({ path, error: String((err as Error).message) });
  }
  await task.destroy();
}
await Bun.write(Bun.stdout, JSON.stringify(out));
process.exit(0); // the fake pdf.js worker would keep the process alive
