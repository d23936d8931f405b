/**
 * The pdf.js worker's head start (src/core/engines/pdf/pdf-head-start.ts): `docproc process file.pdf` hands the file to
 * the worker before the pipeline has loaded; the worker opens it and reads its first pages. Those pages MUST be
 * exactly what the run's own requests read, and serve only the same bytes with the same page parameters.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import {
  closeIdlePdfWorkers,
  PdfWorkerClient,
  prewarmPdfWorkers,
} from "../../../../src/core/engines/pdf/pdf-client.ts";
import type { OpenResult, PageResult } from "../../../../src/core/engines/pdf/pdf-protocol.ts";

setDefaultTimeout(120_000);

const PARAMS = { preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 };

/** A born-digital PDF of `pages` pages, each with its own words. */
async function pdfOf(name: string, pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${name} page ${p}`, { x: 50, y: 780, size: 18, font });
    for (let l = 0; l < 20; l++)
      page.drawText(`${name} line ${l} of page ${p}: item ${p * 100 + l} costs ${(p * l * 1.25).toFixed(2)} EUR`, {
        x: 50,
        y: 740 - l * 24,
        size: 11,
        font,
      });
  }
  return pdf.save();
}

/** Every page of `data` as a worker reads it with `params`, in a worker of its own (no head start). */
/** Opens `data` (in the pool's worker, or a new one), reads every page with `params`, closes it. */
async function openAndRead(data: Uint8Array, params = PARAMS): Promise<{ opened: OpenResult; pages: PageResult[] }> {
  const client = new PdfWorkerClient(data, undefined, 30_000);
  try {
    const opened = await client.open();
    const pages: PageResult[] = [];
    for (let n = 1; n <= opened.numPages; n++)
      pages.push(await client.request<PageResult>({ op: "page", pageNumber: n, ...params }, 30_000, `page ${n}`));
    return { opened, pages };
  } finally {
    await client.close();
  }
}

/** Every page of `data` as a worker reads it with `params`, in a worker of its own (no head start). */
async function pagesOf(data: Uint8Array, params = PARAMS): Promise<PageResult[]> {
  try {
    return (await openAndRead(data, params)).pages;
  } finally {
    closeIdlePdfWorkers();
  }
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
    const { opened, pages } = await openAndRead(a);
    expect(opened.numPages).toBe(3);
    expect(opened.headStartPages).toBe(2);
    expect(pages).toEqual(referenceA);
    expect(pages[0]!.text).toContain("Alpha page 1");
  });

  test("another file opened first discards the head start: its pages are its own", async () => {
    await prewarmPdfWorkers(1, { data: a.slice(), pages: 3, ...PARAMS });
    const other = await openAndRead(b);
    expect(other.opened.headStartPages).toBeUndefined();
    expect(other.pages).toEqual(referenceB);
    // The same worker, now without a head start: the first file opens and reads normally.
    const first = await openAndRead(a);
    expect(first.opened.headStartPages).toBeUndefined();
    expect(first.pages).toEqual(referenceA);
  });

  test("pages read with other parameters are read again with the request's", async () => {
    const small = { ...PARAMS, maxSidePx: 1_000 };
    await prewarmPdfWorkers(1, { data: a.slice(), pages: 3, ...small });
    const { opened, pages } = await openAndRead(a);
    expect(opened.headStartPages).toBe(3);
    expect(pages).toEqual(referenceA);
    // What the head start read differs (a smaller raster scale), so a page served from it would have failed above.
    expect((await pagesOf(a, small))[0]!.scale).toBeLessThan(referenceA[0]!.scale);
  });

  test("a file pdf.js cannot open leaves no head start behind", async () => {
    await prewarmPdfWorkers(1, { data: new TextEncoder().encode("%PDF-1.7\nnot really a pdf"), pages: 3, ...PARAMS });
    const { opened, pages } = await openAndRead(a);
    expect(opened.headStartPages).toBeUndefined();
    expect(pages).toEqual(referenceA);
  });
});
