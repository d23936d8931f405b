/**
 * Test helper, run as a child process by workers.test.ts: prints the pdf.js text content (items and
 * styles) of every page of the PDFs given, using pdf.worker.mjs either as shipped (`stock`) or with the speed
 * patches of src/core/engines/pdf/pdfjs-speed-patches.ts (`speed`, documents opened for their text only, as docproc
 * extracts text). One process each: pdf.js keeps the first worker module it is given for the life of the process.
 * More arguments after the files: `--pages N` (default 5), `--ops` (also the operator list's function ids),
 * `--count-shared` (a last entry `{ sharedFonts }`: how many fonts reused an identical font's translation).
 */
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { applyPatches, SPEED_PATCHES } from "../../../../src/core/engines/pdf/pdfjs-speed-patches.ts";

const [mode, ...args] = process.argv.slice(2);
const flag = args.indexOf("--pages");
const maxPages = flag >= 0 ? Number(args[flag + 1]) : 5;
const withOps = args.includes("--ops");
const countShared = args.includes("--count-shared");
const files = args.filter((a, i) => !a.startsWith("--") && (flag < 0 || i !== flag + 1));
const textOnlyDocs = new Set<string>();
if (mode === "speed") (globalThis as Record<string, unknown>).docprocTextOnlyDocs = textOnlyDocs;
const source = readFileSync(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir), "utf8");
const patched = applyPatches(source, [], mode === "speed" ? SPEED_PATCHES : [])!;
if (mode === "speed" && patched === source) throw new Error("no speed patch applies to this pdf.js");
const file = join(mkdtempSync(join(tmpdir(), "docproc-pdfjs-test-")), "pdf.worker.mjs");
writeFileSync(file, patched);
(globalThis as Record<string, unknown>).pdfjsWorker = {
  WorkerMessageHandler: (await import(file)).WorkerMessageHandler,
};
const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");

// The asset folders docproc gives pdf.js (pdf-worker.ts): CID fonts need the CMaps, unembedded fonts the standard ones.
const root = dirname(dirname(dirname(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.mjs", import.meta.dir))));
const assets = {
  cMapUrl: join(root, "cmaps") + "/",
  cMapPacked: true,
  standardFontDataUrl: join(root, "standard_fonts") + "/",
};

const out: unknown[] = [];
for (const path of files) {
  const task = pdfjs.getDocument({
    data: new Uint8Array(readFileSync(path)),
    verbosity: 0,
    stopAtErrors: false,
    disableFontFace: true,
    useSystemFonts: false,
    ...assets,
  });
  textOnlyDocs.add(`g_${task.docId}`);
  try {
    const doc = await task.promise;
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const ops = withOps
        ? Array.from((await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE })).fnArray)
        : undefined;
      out.push({ path, n, content: await page.getTextContent({ includeMarkedContent: false }), ops });
    }
  } catch (err) {
    out.push({ path, error: String((err as Error).message) });
  }
  await task.destroy();
}
if (countShared) out.push({ sharedFonts: Number((globalThis as Record<string, unknown>).docprocSharedFonts ?? 0) });
await Bun.write(Bun.stdout, JSON.stringify(out));
process.exit(0); // the fake pdf.js worker would keep the process alive
