/**
 * Test helper: renders a PDF into `Page`s (text layer words + lazy raster) with pdf.js legacy and @napi-rs/canvas.
 * A stand-in for core/stages/convert.ts while that module is written; the split tests only need page_number,
 * words, text and render().
 */
import { readFileSync } from "node:fs";
import { createCanvas } from "@napi-rs/canvas";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import type { Page, RasterImage, Word } from "../../src/core/model";

export const CORPORA = new URL("../../../shared/corpora/", import.meta.url).pathname;
const PDFJS_DIR = new URL("../../node_modules/pdfjs-dist/", import.meta.url).pathname;

export interface RenderedPdf {
  pages: Page[];
  close(): Promise<void>;
}

/** Loads a PDF; pages render at `dpi` on demand. `firstPageNumber` is the transaction page number of page 1. */
export async function loadPdfPages(
  data: Uint8Array | string,
  opts: { fileIndex?: number; filename?: string; firstPageNumber?: number; dpi?: number } = {},
): Promise<RenderedPdf> {
  const bytes = typeof data === "string" ? new Uint8Array(readFileSync(data)) : data;
  const params = {
    data: bytes.slice(),
    isEvalSupported: false,
    // CCITT and JBIG2 images (fax scans, separator sheets) decode through pdf.js' wasm modules.
    wasmUrl: PDFJS_DIR + "wasm/",
    standardFontDataUrl: PDFJS_DIR + "standard_fonts/",
    cMapUrl: PDFJS_DIR + "cmaps/",
    iccUrl: PDFJS_DIR + "iccs/",
    verbosity: Number(process.env.PDFJS_VERBOSITY ?? 0),
  };
  const task = pdfjs.getDocument(params as Parameters<typeof pdfjs.getDocument>[0]);
  const doc = await task.promise;
  const scale = (opts.dpi ?? 150) / 72;
  const pages: Page[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const pdfPage = await doc.getPage(i);
    const viewport = pdfPage.getViewport({ scale });
    const words = await textLayerWords(pdfPage, viewport);
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    pages.push({
      page_number: (opts.firstPageNumber ?? 1) + i - 1,
      source_file_index: opts.fileIndex ?? 0,
      source_filename: opts.filename ?? (typeof data === "string" ? data.split("/").pop()! : "file.pdf"),
      source_file_page_number: i,
      image_transform: {
        rasterized_width: width,
        rasterized_height: height,
        source_width: viewport.width / scale,
        source_height: viewport.height / scale,
        source_unit: "point",
        render_scale: scale,
        effective_dpi: opts.dpi ?? 150,
        coordinate_system: "top-left-origin",
        rotation: 0,
      },
      text_source: words.length > 0 ? "text_layer" : "none",
      words,
      text: wordsToText(words),
      ocr_confidence: words.length > 0 ? 1 : null,
      render: () => renderPage(pdfPage, viewport, width, height),
    });
  }
  return { pages, close: () => task.destroy() };
}

async function renderPage(pdfPage: any, viewport: any, width: number, height: number): Promise<RasterImage> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  await pdfPage.render({ canvasContext: ctx as any, viewport, canvas: canvas as any }).promise;
  const img = ctx.getImageData(0, 0, width, height);
  return { data: new Uint8Array(img.data.buffer), width, height, channels: 4 };
}

async function textLayerWords(pdfPage: any, viewport: any): Promise<Word[]> {
  const content = await pdfPage.getTextContent();
  const words: Word[] = [];
  for (const item of content.items as any[]) {
    if (!item.str || !item.str.trim()) continue;
    const [a, b, , , e, f] = pdfjs.Util.transform(viewport.transform, item.transform);
    const fontHeight = Math.hypot(a, b) || 10;
    const itemWidth = item.width * viewport.scale;
    const tokens = item.str.split(/(\s+)/);
    const charWidth = itemWidth / Math.max(1, item.str.length);
    let offset = 0;
    for (const token of tokens) {
      if (token.trim()) {
        const x1 = e + offset * charWidth;
        words.push({
          text: token,
          confidence: 1,
          bounding_box: [x1, f - fontHeight, x1 + token.length * charWidth, f],
        });
      }
      offset += token.length;
    }
  }
  assignLines(words);
  return words;
}

/** Groups words into lines by vertical overlap, ordered top to bottom, left to right. */
function assignLines(words: Word[]): void {
  words.sort((p, q) => p.bounding_box[3] - q.bounding_box[3] || p.bounding_box[0] - q.bounding_box[0]);
  let line = -1;
  let lineBottom = -Infinity;
  for (const w of words) {
    const height = w.bounding_box[3] - w.bounding_box[1];
    if (w.bounding_box[3] - lineBottom > height * 0.5) {
      line++;
      lineBottom = w.bounding_box[3];
    }
    w.line = line;
  }
  words.sort((p, q) => p.line! - q.line! || p.bounding_box[0] - q.bounding_box[0]);
}

function wordsToText(words: Word[]): string {
  const lines: string[][] = [];
  for (const w of words) (lines[w.line!] ??= []).push(w.text);
  return lines.filter(Boolean).map((l) => l.join(" ")).join("\n");
}

/** Text-only pages (no raster), e.g. supplied text: enough for policy and boundary logic. */
export function textPages(texts: string[], fileIndex: number, firstPageNumber: number, filename = `file${fileIndex}.txt`): Page[] {
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
