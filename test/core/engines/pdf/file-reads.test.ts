/**
 * What reading a PDF from its file costs (issue 34), counted, not timed (pdf-file-source.ts `fileReadCounts`,
 * pdfjs-file-stream.ts): an object's dictionary is tokenised from its chunk's bytes by the lexer's fast path, not
 * handed over one getByte call at a time (that made the CID-font shape's pdf.js CPU ~15-23% dearer than holding the
 * file), and the file is read about once, not once per object.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { closeIdlePdfWorkers, PdfWorkerClient } from "../../../../src/core/engines/pdf/pdf-client.ts";
import type { PageResult, WorkerStats } from "../../../../src/core/engines/pdf/pdf-protocol.ts";
import { fileBackingOf, readSourceFile } from "../../../../src/core/engines/pdf/pdf-bytes.ts";

setDefaultTimeout(120_000);

const PAGE = { op: "page", preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 } as const;
const scratch = mkdtempSync(path.join(tmpdir(), "docproc-file-reads-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  closeIdlePdfWorkers();
});

/** `pages` pages, each with its own font and a long width array, every object uncompressed (read by its offset). */
async function longDictionaries(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica, { subset: false });
    page.drawText(`Invoice ${i + 1} total 1,234.56 EUR`, { x: 50, y: 780, size: 12, font });
    // A dictionary of ~6 KB per page: what a CID font's W array is to the lexer.
    page.node.set(doc.context.obj("DocprocWidths"), doc.context.obj(Array.from({ length: 1500 }, (_, k) => k % 997)));
  }
  return doc.save({ useObjectStreams: false });
}

const readsOf = async (client: PdfWorkerClient) =>
  (await client.request<WorkerStats>({ op: "stats" }, 10_000, "stats")).fileReads!;

test("a file's dictionaries are tokenised from its chunks, and the file is read about once", async () => {
  const pages = 40;
  const data = await longDictionaries(pages);
  const file = path.join(scratch, "long-dictionaries.pdf");
  writeFileSync(file, data);
  const mapped = await readSourceFile(file, { fileBackedMin: 1 });
  expect(fileBackingOf(mapped)).toBeDefined();
  const fromFile = new PdfWorkerClient(mapped, undefined, 60_000, undefined, { share: false });
  const held = new PdfWorkerClient(new Uint8Array(data), undefined, 60_000, undefined, { share: false });
  try {
    const before = await readsOf(fromFile);
    expect((await fromFile.open()).numPages).toBe(pages);
    await held.open();
    for (let n = 1; n <= pages; n++) {
      const expected = await held.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`);
      expect(await fromFile.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`)).toEqual(expected);
    }
    const after = await readsOf(fromFile);
    // One getByte call per byte of the cross-reference table and trailer (read once, from the file's stream), none
    // for the objects' dictionaries (through getByte, as before this fast path, they made 10,362 calls here).
    const xrefBytes = data.length - Buffer.from(data).lastIndexOf("xref");
    expect(after.byteCalls - before.byteCalls).toBeLessThanOrEqual(xrefBytes + 1024);
    // Read about once: the file's chunks (64 KiB, each with the next one's first 16 KiB) fit in the chunks kept.
    expect(after.bytes - before.bytes).toBeLessThanOrEqual(1.3 * data.length + 80 * 1024);
    expect(after.reads - before.reads).toBeLessThanOrEqual(Math.ceil(data.length / 65536) + 4);
  } finally {
    await Promise.all([fromFile.close(), held.close()]);
  }
});
