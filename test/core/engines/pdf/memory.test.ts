/**
 * Memory bounded by design (issue 34), checked with counters rather than RSS: what pdf.js keeps per object parsed
 * stays under a fixed bound however long the document (src/core/engines/pdf/pdfjs-memory-patches.ts), and
 * pages read after objects were dropped from the cache read exactly as before.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { closeIdlePdfWorkers, PdfWorkerClient } from "../../../../src/core/engines/pdf/pdf-client.ts";
import { XREF_CACHE_MAX } from "../../../../src/core/engines/pdf/pdfjs-memory-patches.ts";
import type { PageResult, WorkerStats } from "../../../../src/core/engines/pdf/pdf-protocol.ts";

setDefaultTimeout(240_000);

const INVOICE = path.resolve(import.meta.dir, "../../../../fixtures/inbox/born-digital-invoice.pdf");
const PAGE = { op: "page", preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 } as const;

afterAll(() => {
  closeIdlePdfWorkers();
});

/** `copies` copies of the invoice's first page, each with its own objects (fonts, resources), as pdfunite joins. */
async function joinedCopies(copies: number): Promise<{ data: Uint8Array; objects: number }> {
  const bytes = await Bun.file(INVOICE).bytes();
  const out = await PDFDocument.create();
  for (let i = 0; i < copies; i++) {
    const [page] = await out.copyPages(await PDFDocument.load(bytes), [0]);
    out.addPage(page!);
  }
  return { data: await out.save({ useObjectStreams: false }), objects: out.context.largestObjectNumber };
}

describe("pdf.js's object cache", () => {
  test("holds at most XREF_CACHE_MAX objects of a long file, and pages read after it was trimmed read the same", async () => {
    const { data, objects } = await joinedCopies(700);
    // The file must have far more objects than the bound, or the test proves nothing.
    expect(objects).toBeGreaterThan(XREF_CACHE_MAX * 2);
    const client = new PdfWorkerClient(data, undefined, 60_000, undefined, { share: false });
    try {
      expect((await client.open()).numPages).toBe(700);
      const texts: string[] = [];
      for (let n = 1; n <= 700; n++) {
        const page = await client.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`);
        texts.push(page.text);
      }
      expect(texts[0]!.length).toBeGreaterThan(100);
      expect(new Set(texts).size).toBe(1); // every copy reads as the first
      const stats = await client.request<WorkerStats>({ op: "stats" }, 10_000, "stats");
      expect(stats.xrefCachePeak).toBeGreaterThan(XREF_CACHE_MAX / 2); // the cache was used...
      expect(stats.xrefCachePeak).toBeLessThanOrEqual(XREF_CACHE_MAX + 1); // ...and never grew past its bound
    } finally {
      await client.close();
    }
  });
});
