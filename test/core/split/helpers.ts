/**
 * Test helpers for the split tests: real files through the conversion stage, and text-only pages for policy and
 * boundary logic.
 */
import { readFileSync } from "node:fs";
import type { Page } from "../../../src/core/model";
import { convertSource } from "../../../src/core/stages/convert";

export const CORPORA = new URL("../../../fixtures/corpora/", import.meta.url).pathname;

/**
 * Pages of a real file through the conversion stage (core/stages/convert/). `maxSidePx` bounds the raster
 * (1754 px = 150 DPI for A4) to keep the tests fast; production renders at 300 DPI.
 */
export async function convertFile(
  data: Uint8Array | string,
  opts: { fileIndex?: number; filename?: string; firstPageNumber?: number; maxSidePx?: number } = {},
): Promise<RenderedPdf> {
  const bytes = typeof data === "string" ? new Uint8Array(readFileSync(data)) : data;
  const filename = opts.filename ?? (typeof data === "string" ? data.split("/").pop()! : "file.pdf");
  const converted = await convertSource(
    { index: opts.fileIndex ?? 0, filename, data: bytes, split_policy: "inherit" },
    { firstPageNumber: opts.firstPageNumber ?? 1, maxPages: null, limits: { maxSidePx: opts.maxSidePx ?? 1754 } },
  );
  return { pages: converted.pages, close: () => converted.close() };
}

export interface RenderedPdf {
  pages: Page[];
  close(): Promise<void>;
}

/** Text-only pages (no raster), e.g. supplied text: enough for policy and boundary logic. */
export function textPages(
  texts: string[],
  fileIndex: number,
  firstPageNumber: number,
  filename = `file${fileIndex}.txt`,
): Page[] {
  return texts.map((text, i) => ({
    page_number: firstPageNumber + i,
    source_file_index: fileIndex,
    source_filename: filename,
    source_file_page_number: i + 1,
    image_transform: {
      rasterized_width: 1240,
      rasterized_height: 1754,
      source_width: 1240,
      source_height: 1754,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: null,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "supplied_text",
    words: [],
    text,
    ocr_confidence: null,
  }));
}

/** Builds SplitFiles from per-file page texts, numbering pages over the whole transaction. */
export function textFiles(
  specs: Array<{ policy: "inherit" | "single_document" | "self_contained"; pages: string[] }>,
): Array<{ index: number; filename: string; policy: "inherit" | "single_document" | "self_contained"; pages: Page[] }> {
  let next = 1;
  return specs.map((s, index) => {
    const pages = textPages(s.pages, index, next);
    next += pages.length;
    return { index, filename: `file${index}.txt`, policy: s.policy, pages };
  });
}

/** A short invoice page: its own number, issuer and page counter, so boundaries are unambiguous. */
export function invoicePage(opts: { vendor: string; number: string; page: number; of: number }): string {
  const domain = opts.vendor.toLowerCase().replace(/[^a-z]/g, "") + ".example";
  return [
    `${opts.vendor} GmbH · info@${domain}`,
    opts.page === 1 ? "INVOICE" : "Invoice (continued)",
    `Invoice No: ${opts.number}`,
    `Line items ${opts.page}`,
    opts.page === opts.of ? "Total due 100.00 EUR" : "Subtotal carried forward",
    `Page ${opts.page} of ${opts.of}`,
  ].join("\n");
}
