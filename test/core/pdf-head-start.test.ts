/**
 * The pdf.js worker's head start (src/core/convert/pdf-head-start.ts): `docproc process file.pdf` hands the file to
 * the worker before the pipeline has loaded; the worker opens it and reads its first pages. Those pages MUST be
 * exactly what the run's own requests read, and serve only the same bytes with the same page parameters.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { closeIdlePdfWorkers, PdfWorkerClient, prewarmPdfWorkers } from "../../src/core/convert/pdf-client.ts";
import type { PageResult } from "../../src/core/convert/pdf-protocol.ts";

setDefaultTimeout(120_000);

const PARAMS = { preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 };

/** A born-digital PDF of `pages` pages, each with its own words. */
async function pdfOf(name: string, pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${name} page ${p}`, { x: 50, y: 780, size: 18, font });
    for (let l = 0; l < 20; l++) page.drawText(`${name} line ${l} of page ${p}: item ${p * 100 + l} costs ${(p * l * 1.25).toFixed(2)} EUR`, { x: 50, y: 740 - l * 24, size: 11, font });
  }
  return pdf.save();
}

/** Every page of `data` as a worker reads it with `params`, in a worker of its own (no head start). */
async function pagesOf(data: Uint8Array, params = PARAMS): Promise<PageResult[]> {
  const client = new PdfWorkerClient(data, undefined, 30_000);
  try {
    const { numPages } = await client.open();
    const out: PageResult[] = [];
    for (let n = 1; n <= numPages; n++) out.push(await client.request<PageResult>({ op: "page", pageNumber: n, ...params }, 30_000, `page ${n}`));
    return out;
  } finally {
    await client.close();
    closeIdlePdfWorkers();
  }
}

async function readAll(client: PdfWorkerClient, pages: number): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for (let n = 1; n <= pages; n++) out.push(await client.request<PageResult>({ op: "page", pageNumber: n, ...PARAMS }, 30_000, `page ${n}`));
  return out;
}

let a: Uint8Array;
let b: Uint8Array;
let referenceA: PageResult[];
let referenceB: PageResult[];

beforeEach(async () => {
  closeIdlePdfWorkers();
  a ??= await pdfOf("Alpha", 3);
  b ??= await pdfOf("Bravo", 2);
  referenceA ??= await pagesOf(a);
  referenceB ??= await pagesOf(b);
});

afterEach(() => closeIdlePdfWorkers());

describe("pdf.js head start", () => {
  test("the pages read ahead are the pages the run's requests read, and the rest is read as usual", async () => {
    await prewarmPdfWorkers(1, { data: a.slice(), pages: 2, ...PARAMS });
    const client = new PdfWorkerClient(a, undefined, 30_000);
    try {
      const opened = await client.open();
      expect(opened.numPages).toBe(3);
      expect(opened.headStartPages).toBe(2);
      const pages = await readAll(client, 3);
      expect(pages).toEqual(referenceA);
      expect(pages[0]!.text).toContain("Alpha page 1");
    } finally {
      await client.close();
    }
  });

  test("another file opened first discards the head start: its pages are its own", async () => {
    await prewarmPdfWorkers(1, { data: a.slice(), pages: 3, ...PARAMS });
    const other = new PdfWorkerClient(b, undefined, 30_000);
    try {
      const opened = await other.open();
      expect(opened.headStartPages).toBeUndefined();
      expect(await readAll(other, 2)).toEqual(referenceB);
    } finally {
      await other.close();
    }
    // The same worker, now without a head start: the first file opens and reads normally.
    const first = new PdfWorkerClient(a, undefined, 30_000);
    try {
      expect((await first.open()).headStartPages).toBeUndefined();
      expect(await readAll(first, 3)).toEqual(referenceA);
    } finally {
      await first.close();
    }
  });

  test("pages read with other parameters are read again with the request's", async () => {
    const small = { ...PARAMS, maxSidePx: 1_000 };
    await prewarmPdfWorkers(1, { data: a.slice(), pages: 3, ...small });
    const client = new PdfWorkerClient(a, undefined, 30_000);
    try {
      expect((await client.open()).headStartPages).toBe(3);
      const pages = await readAll(client, 3);
      expect(pages).toEqual(referenceA);
      // What the head start read differs (a smaller raster scale), so a page served from it would have failed above.
      expect((await pagesOf(a, small))[0]!.scale).toBeLessThan(referenceA[0]!.scale);
    } finally {
      await client.close();
    }
  });

  test("a file pdf.js cannot open leaves no head start behind", async () => {
    await prewarmPdfWorkers(1, { data: new TextEncoder().encode("%PDF-1.7\nnot really a pdf"), pages: 3, ...PARAMS });
    const client = new PdfWorkerClient(a, undefined, 30_000);
    try {
      expect((await client.open()).headStartPages).toBeUndefined();
      expect(await readAll(client, 3)).toEqual(referenceA);
    } finally {
      await client.close();
    }
  });
});
