/**
 * What pdf.js holds for one document does not grow with the workers reading it (issue 34): a long file's helper
 * workers and its primary each keep 1/readers of the XRef cache bound and of the garbage step
 * (src/core/engines/pdf/pdf-worker-gc.ts `readersOf`, told by src/core/convert/pdf.ts). Counted, not timed.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { PDFDocument } from "pdf-lib";
import path from "node:path";
import {
  closeIdlePdfWorkers,
  PdfWorkerClient,
  prewarmPdfWorkers,
} from "../../../../src/core/engines/pdf/pdf-client.ts";
import { XREF_CACHE_MAX } from "../../../../src/core/engines/pdf/pdfjs-memory-patches.ts";
import type { PageResult, WorkerStats } from "../../../../src/core/engines/pdf/pdf-protocol.ts";
import { GcPacer, GROWTH_BYTES, readersOf } from "../../../../src/core/engines/pdf/pdf-worker-gc.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";

setDefaultTimeout(240_000);

const INVOICE = path.resolve(import.meta.dir, "../../../../fixtures/inbox/born-digital-invoice.pdf");
const PAGE = { op: "page", preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 } as const;

afterAll(() => closeIdlePdfWorkers());

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

describe("a document's pdf.js memory shared by its readers", () => {
  test("each reader's bounds are a share of one worker's, and whole again when the document closes", () => {
    const pacer = new GcPacer({ heap: () => 0, rss: () => 0, collect: () => {} });
    const max = () => (globalThis as { docprocXrefMax?: number }).docprocXrefMax;
    readersOf(pacer, 7, 2);
    expect(pacer.growthBytes).toBe(GROWTH_BYTES / 2);
    expect(max()).toBe(XREF_CACHE_MAX / 2);
    readersOf(pacer, 8, 4); // a second document, read by four: the smallest share holds for the worker
    expect(pacer.growthBytes).toBe(GROWTH_BYTES / 4);
    readersOf(pacer, 8, 0);
    expect(max()).toBe(XREF_CACHE_MAX / 2);
    readersOf(pacer, 7, 1);
    expect(pacer.growthBytes).toBe(GROWTH_BYTES);
    expect(max()).toBe(XREF_CACHE_MAX);
  });

  test("two workers reading one long file hold at most one worker's XRef cache between them, and read the same", async () => {
    const { data, objects } = await joinedCopies(700);
    expect(objects).toBeGreaterThan(XREF_CACHE_MAX * 2); // each worker's half of the pages exceeds its whole bound
    const readers = [0, 1].map(() => new PdfWorkerClient(data, undefined, 60_000, undefined, { share: false }));
    try {
      for (const client of readers) {
        expect((await client.open()).numPages).toBe(700);
        await client.request({ op: "readers", readers: 2 }, 10_000, "readers");
      }
      const texts: string[] = [];
      for (let n = 1; n <= 700; n++) {
        const page = await readers[n % 2]!.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`);
        texts.push(page.text);
      }
      expect(texts[0]!.length).toBeGreaterThan(100);
      expect(new Set(texts).size).toBe(1); // every copy reads as the first, whichever worker read it
      let peaks = 0;
      for (const client of readers) {
        const stats = await client.request<WorkerStats>({ op: "stats" }, 10_000, "stats");
        expect(stats.xrefCacheMax).toBe(XREF_CACHE_MAX / 2);
        expect(stats.gcStepBytes).toBe(GROWTH_BYTES / 2);
        expect(stats.xrefCachePeak).toBeGreaterThan(XREF_CACHE_MAX / 4); // the cache was used...
        expect(stats.xrefCachePeak).toBeLessThanOrEqual(XREF_CACHE_MAX / 2 + 1); // ...within its share
        peaks += stats.xrefCachePeak;
      }
      expect(peaks).toBeLessThanOrEqual(XREF_CACHE_MAX + 2);
    } finally {
      for (const client of readers) await client.close();
    }
  });

  test("a long file converted with a helper tells both workers they share it, and the primary when it is alone again", async () => {
    const { generatePdf } = await import("../../../../bench/convert.ts");
    closeIdlePdfWorkers();
    await prewarmPdfWorkers(2);
    const data = await generatePdf(60, 7);
    const told: number[] = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, msg: { op?: string; readers?: number }, ...rest: unknown[]) {
      if (msg?.op === "readers") told.push(msg.readers!);
      return (post as (...a: unknown[]) => void).call(this, msg, ...rest);
    } as typeof post;
    try {
      const converted = await convertSource(
        { index: 0, filename: "long.pdf", data, split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      );
      expect(converted.pages).toHaveLength(60);
      await converted.close();
    } finally {
      Worker.prototype.postMessage = post;
      closeIdlePdfWorkers();
    }
    expect(told).toEqual([2, 2, 1]); // the helper and the primary while both read; the primary alone after
  });
});
