/**
 * Memory bounded by design (issue 34), checked with counters rather than RSS: what pdf.js keeps per object parsed
 * stays under a fixed bound however long the document (src/core/engines/pdf/pdfjs-memory-patches.ts), and
 * pages read after objects were dropped from the cache read exactly as before; a large PDF's bytes are held once
 * (src/core/engines/pdf/pdf-bytes.ts), and the worker collects its garbage when its memory grows.
 */
import { heapSize } from "bun:jsc";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRef, StandardFonts } from "pdf-lib";
import { closeIdlePdfWorkers, PdfWorkerClient } from "../../../../src/core/engines/pdf/pdf-client.ts";
import { FONT_CACHE_MAX, XREF_CACHE_MAX } from "../../../../src/core/engines/pdf/pdfjs-memory-patches.ts";
import type { PageResult, WorkerStats } from "../../../../src/core/engines/pdf/pdf-protocol.ts";
import {
  bytesCopiedForWorkers,
  isShared,
  readSourceFile,
  SHARED_MIN_BYTES,
} from "../../../../src/core/engines/pdf/pdf-bytes.ts";
import { CLEANUP_EVERY_PAGES, GcPacer, JSC_PROBE } from "../../../../src/core/engines/pdf/pdf-worker-gc.ts";
import { wholeBytes } from "../../../../src/core/source-data";

setDefaultTimeout(240_000);

const INVOICE = path.resolve(import.meta.dir, "../../../../fixtures/inbox/born-digital-invoice.pdf");
const PAGE = { op: "page", preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 } as const;

const scratch: string[] = [];
const scratchDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-bytes-"));
  scratch.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
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

describe("pdf.js's font cache", () => {
  test("holds at most FONT_CACHE_MAX font references of a text-only document, is emptied every CLEANUP_EVERY_PAGES pages, and a page naming a dropped font reads the same", async () => {
    const source = await PDFDocument.load(await Bun.file(INVOICE).bytes());
    const out = await PDFDocument.create();
    // The first and the last page share one copy's fonts; the 400 pages between name fonts of their own (each
    // copyPages call copies anew, as pdfunite joins files), which push the first page's out of the cache before the
    // last page is read.
    const [first, last] = await out.copyPages(source, [0, 0]);
    out.addPage(first!);
    for (let i = 0; i < 400; i++) {
      const [page] = await out.copyPages(source, [0]);
      out.addPage(page!);
    }
    out.addPage(last!);
    const client = new PdfWorkerClient(await out.save({ useObjectStreams: false }), undefined, 60_000, undefined, {
      share: false,
    });
    try {
      expect((await client.open()).numPages).toBe(402);
      // The worker may have read other documents before (the counter is its own).
      const before = await client.request<WorkerStats>({ op: "stats" }, 10_000, "stats");
      const pages: PageResult[] = [];
      for (let n = 1; n <= 402; n++)
        pages.push(await client.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`));
      const stats = await client.request<WorkerStats>({ op: "stats" }, 10_000, "stats");
      // The document names far more font references than the bound, so the cache was trimmed...
      expect(stats.fontCachePeak).toBeGreaterThan(FONT_CACHE_MAX / 2);
      expect(stats.fontCachePeak).toBeLessThanOrEqual(FONT_CACHE_MAX + 1);
      // pdf.js's own caches were emptied on the way (pdf-worker-gc.ts pageRead), the document read on...
      expect(402).toBeGreaterThan(CLEANUP_EVERY_PAGES); // long enough to prove something
      expect(stats.cacheCleanups! - before.cacheCleanups!).toBe(Math.floor(402 / CLEANUP_EVERY_PAGES));
      // ...and the last page, whose fonts were dropped and translated again, reads exactly as the first.
      expect(pages[0]!.text.length).toBeGreaterThan(100);
      expect(new Set(pages.map((p) => p.text)).size).toBe(1);
      expect([...pages[401]!.words.boxes]).toEqual([...pages[0]!.words.boxes]);
      // The page tree's counts outlive the cleanup: pdf.js fetched the 402 page dictionaries ahead once, opening the
      // document, and not again after the cleanup (a burst of every remaining page's, CLEANUP_KEEPS_PAGE_COUNTS).
      expect(before.pagePrefetches!).toBeGreaterThanOrEqual(402);
      expect(stats.pagePrefetches! - before.pagePrefetches!).toBe(0);
      // Each walk resumed where the last left the kids (a few kids looked at per page, ~402²/2 = 80,000 from the
      // first kid every time).
      expect(stats.pageWalkSteps! - before.pageWalkSteps!).toBeLessThan(402 * 8);
    } finally {
      await client.close();
    }
  });
});

describe("pdf.js's page tree walk", () => {
  test("finds every page of a nested page tree asked in any order, resuming where a walk left a node's kids", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 60; n++) doc.addPage([300, 200]).drawText(`Page ${n} of the tree`, { x: 20, y: 100, font });
    // The 60 pages hung under three nodes of 20 (pdf-lib makes one flat node), as long files often are.
    const ctx = doc.context;
    const rootRef = doc.catalog.get(PDFName.of("Pages")) as PDFRef;
    const root = ctx.lookup(rootRef, PDFDict);
    const pages = ctx.lookup(root.get(PDFName.of("Kids")), PDFArray).asArray();
    const nodes = [0, 1, 2].map((g) => {
      const kids = pages.slice(g * 20, g * 20 + 20);
      const node = ctx.register(ctx.obj({ Type: "Pages", Parent: rootRef, Kids: kids, Count: kids.length }));
      for (const kid of kids) ctx.lookup(kid, PDFDict).set(PDFName.of("Parent"), node);
      return node;
    });
    root.set(PDFName.of("Kids"), ctx.obj(nodes));
    const client = new PdfWorkerClient(await doc.save({ useObjectStreams: false }), undefined, 60_000, undefined, {
      share: false,
    });
    try {
      expect((await client.open()).numPages).toBe(60);
      // Forwards, backwards, across nodes and within one: every page is its own.
      const order = [37, 5, 60, 21, 20, 1, 40, 41, 59, 2, ...Array.from({ length: 60 }, (_, i) => i + 1)];
      for (const n of order) {
        const page = await client.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`);
        expect(page.text).toBe(`Page ${n} of the tree`);
      }
    } finally {
      await client.close();
    }
  });
});

describe("a PDF's bytes held once (pdf-bytes.ts)", () => {
  test("bytes read shared are read by every worker where they are: nothing is copied for them", async () => {
    const { data } = await joinedCopies(120);
    expect(data.byteLength).toBeGreaterThan(SHARED_MIN_BYTES); // else it would not be read shared
    const file = path.join(scratchDir(), "joined.pdf");
    writeFileSync(file, data);
    const bytes = wholeBytes(await readSourceFile(file)); // 1 MiB to 32 MiB: in shared memory
    expect(isShared(bytes)).toBe(true);
    expect(Buffer.compare(bytes, data)).toBe(0);
    const before = bytesCopiedForWorkers();
    const primary = new PdfWorkerClient(bytes, undefined, 60_000, undefined, { share: false });
    const helper = new PdfWorkerClient(primary.bytes(), undefined, 60_000, undefined, { share: false });
    try {
      expect((await primary.open()).numPages).toBe(120);
      expect((await helper.open()).numPages).toBe(120);
      const a = await primary.request<PageResult>({ ...PAGE, pageNumber: 1 }, 60_000, "page 1");
      const b = await helper.request<PageResult>({ ...PAGE, pageNumber: 120 }, 60_000, "page 120");
      expect(a.text.length).toBeGreaterThan(100);
      expect(b.text).toBe(a.text);
      // Let go and opened again (a render after OCR does that): still no copy.
      await primary.suspend();
      expect((await primary.request<PageResult>({ ...PAGE, pageNumber: 2 }, 60_000, "page 2")).text).toBe(a.text);
      expect(bytesCopiedForWorkers() - before).toBe(0);
    } finally {
      await helper.close();
      await primary.close();
    }
  });

  test("bytes the caller holds unshared are copied once for all the workers of an open document", async () => {
    const { data } = await joinedCopies(120);
    const before = bytesCopiedForWorkers();
    const primary = new PdfWorkerClient(data, undefined, 60_000, undefined, { share: false });
    const helper = new PdfWorkerClient(primary.bytes(), undefined, 60_000, undefined, { share: false });
    try {
      await primary.open();
      await helper.open();
      expect(helper.bytes()).toBe(primary.bytes());
      expect(bytesCopiedForWorkers() - before).toBe(data.byteLength);
    } finally {
      await helper.close();
      await primary.close();
    }
  });

  test("small files are left as they were read, and a small PDF gets a copy of its own per worker", async () => {
    const dir = scratchDir();
    writeFileSync(path.join(dir, "small.pdf"), await Bun.file(INVOICE).bytes());
    writeFileSync(path.join(dir, "big.txt"), "x".repeat(SHARED_MIN_BYTES + 10));
    expect(isShared(wholeBytes(await readSourceFile(path.join(dir, "small.pdf"))))).toBe(false);
    expect(isShared(wholeBytes(await readSourceFile(path.join(dir, "big.txt"))))).toBe(false); // not a PDF
    await expect(readSourceFile(path.join(dir, "missing.pdf"))).rejects.toThrow();
  });
});

describe("garbage paced in the pdf.js worker (pdf-worker-gc.ts)", () => {
  test("collects in full only when both its heap and resident memory grew by the step", () => {
    let heap = 100;
    let rss = 1000;
    let collected = 0;
    const pacer = new GcPacer({ heap: () => heap, rss: () => rss, collect: () => collected++ }, 50);
    heap += 49;
    rss += 500;
    pacer.step();
    expect(collected).toBe(0); // the heap has not grown by the step yet
    heap += 1;
    pacer.step();
    expect(collected).toBe(1);
    expect(pacer.collections).toBe(1);
    // Memory freed is reused: the heap grows again, resident memory does not, and nothing is collected.
    heap += 60;
    pacer.step();
    expect(collected).toBe(1);
    heap += 60;
    rss += 50;
    pacer.step();
    expect(collected).toBe(2);
  });

  test("reads the heap JavaScriptCore recorded at its last collection: heapSize()'s figure, without its walk of the heap", () => {
    const MB = 2 ** 20;
    Bun.gc(true);
    const before = JSC_PROBE.heap();
    const near = (a: number, b: number) => Math.abs(a - b) < MB;
    expect(near(before, heapSize())).toBe(true);
    // What a collection finds alive, objects and the bytes of typed arrays alike, is what the pacing sees grow.
    const kept = {
      objects: Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` })),
      bytes: new Uint8Array(40 * MB),
    };
    Bun.gc(true);
    expect(near(JSC_PROBE.heap(), heapSize())).toBe(true);
    expect(JSC_PROBE.heap() - before).toBeGreaterThan(45 * MB);
    expect(kept.objects.length + kept.bytes.length).toBeGreaterThan(0);
  });
});
