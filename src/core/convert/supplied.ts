/**
 * Supplied inputs that become pages without a source image: plain text (`documentText`, pages split on form feed)
 * and OCR data (`ocrData`, shape in docs/inputs.md). Text gets a synthetic geometry, a monospace layout on A4 at
 * 300 DPI, so its words have boxes like any other page.
 */
import { z } from "zod";
import { DocprocError } from "../errors.ts";
import type { Box, ConvertedFile, OcrDataInput, Page, RasterImage, Word } from "../model.ts";
import { makeTransform } from "../convert-limits.ts";
import { meanConfidence, orderWordsIntoLines } from "../word-lines.ts";
import { toGrayscale, type RenderOptions } from "../imaging/render.ts";
import { drawFontFamily } from "../imaging/draw-font";
import { maxOf } from "../arrays";

export interface SuppliedOptions {
  sourceFileIndex?: number;
  filename?: string;
}

const A4 = { width: 595.276, height: 841.89 };
const TEXT_SCALE = 300 / 72;
const MARGIN = 36; // points
const FONT_SIZE = 10; // points; shrinks when a page's longest line or line count would not fit
const CHAR_ADVANCE = 0.6; // em, a typical monospace advance
const LINE_HEIGHT = 1.2; // em

/** Pages from plain text. A trailing form feed (as pdftotext writes) does not start an extra page. */
export function convertText(text: string, firstPageNumber: number, opts: SuppliedOptions = {}): ConvertedFile {
  const parts = text.replace(/\r\n?/g, "\n").split("\f");
  if (parts.length > 1 && parts[parts.length - 1].trim() === "") parts.pop();
  const filename = opts.filename ?? "document.txt";
  const pages = parts.map((pageText, i) => textPage(pageText, i, firstPageNumber, opts.sourceFileIndex ?? 0, filename));
  return {
    source_file_index: opts.sourceFileIndex ?? 0,
    filename,
    content_type: "text/plain",
    page_count: pages.length,
    pages,
    warnings: [],
  };
}

function textPage(
  pageText: string,
  i: number,
  firstPageNumber: number,
  sourceFileIndex: number,
  filename: string,
): Page {
  const lines = pageText.split("\n").map((line) => expandTabs(line).trimEnd());
  const longest = Math.max(1, maxOf(lines.map((line) => line.length)));
  const fontSize = Math.min(
    FONT_SIZE,
    (A4.width - 2 * MARGIN) / (longest * CHAR_ADVANCE),
    (A4.height - 2 * MARGIN) / (Math.max(1, lines.length) * LINE_HEIGHT),
  );
  const advance = fontSize * CHAR_ADVANCE * TEXT_SCALE;
  const lineHeight = fontSize * LINE_HEIGHT * TEXT_SCALE;
  const margin = MARGIN * TEXT_SCALE;
  const words: Word[] = [];
  lines.forEach((line, lineIndex) => {
    for (const match of line.matchAll(/\S+/g)) {
      const x1 = margin + match.index * advance;
      const y1 = margin + lineIndex * lineHeight;
      const box: Box = [
        round2(x1),
        round2(y1),
        round2(x1 + match[0].length * advance),
        round2(y1 + fontSize * TEXT_SCALE),
      ];
      words.push({ text: match[0], confidence: 1, bounding_box: box, line: lineIndex + 1 });
    }
  });
  const transform = makeTransform(A4, "point", TEXT_SCALE, 300);
  return {
    page_number: firstPageNumber + i,
    source_file_index: sourceFileIndex,
    source_filename: filename,
    source_file_page_number: i + 1,
    image_transform: transform,
    text_source: "supplied_text",
    words,
    text: lines.join("\n").replace(/\n+$/, ""),
    ocr_confidence: meanConfidence(words),
    render: (o?: RenderOptions) =>
      Promise.resolve(drawWords(transform.rasterized_width, transform.rasterized_height, words, o)),
  };
}

function expandTabs(line: string): string {
  return line.includes("\t")
    ? line.replace(/([^\t]*)\t/g, (_, before: string) => before + " ".repeat(8 - (before.length % 8)))
    : line;
}

const finite = z.number().finite();
const OcrWordSchema = z.object({
  text: z.string().min(1),
  bbox: z
    .tuple([finite, finite, finite, finite])
    .refine(([x1, y1, x2, y2]) => x1 <= x2 && y1 <= y2, "bbox must be [x1, y1, x2, y2] with x1 <= x2 and y1 <= y2"),
  confidence: z.number().min(0).max(1).optional(),
});
const OcrPageSchema = z.object({
  width: z.number().int().positive().max(100_000),
  height: z.number().int().positive().max(100_000),
  dpi: z.number().positive().max(10_000).optional(),
  rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
  words: z.array(OcrWordSchema),
});
export const OcrDataSchema = z.object({ pages: z.array(OcrPageSchema).min(1), filename: z.string().min(1).optional() });

/** Validates supplied OCR data; every problem is listed in one `invalid_input` error. */
export function parseOcrData(raw: unknown): OcrDataInput {
  const parsed = OcrDataSchema.safeParse(raw);
  if (parsed.success) return parsed.data as OcrDataInput;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new DocprocError("invalid_input", `invalid ocrData: ${problems.join("; ")}`, { details: { problems } });
}

/** Pages from supplied OCR data (boxes in each page's own pixel space; render_scale 1). */
export function convertOcrData(data: OcrDataInput, firstPageNumber: number, opts: SuppliedOptions = {}): ConvertedFile {
  const valid = parseOcrData(data);
  const filename = opts.filename ?? valid.filename ?? "ocr-data.json";
  const sourceFileIndex = opts.sourceFileIndex ?? 0;
  const pages = valid.pages.map((p, i): Page => {
    const words: Word[] = p.words.map((w) => ({
      text: w.text,
      confidence: w.confidence ?? 1,
      bounding_box: clampBox(w.bbox, p.width, p.height),
    }));
    const text = orderWordsIntoLines(words);
    const transform = { ...makeTransform(p, "pixel", 1, p.dpi ?? null), rotation: p.rotation ?? 0 };
    return {
      page_number: firstPageNumber + i,
      source_file_index: sourceFileIndex,
      source_filename: filename,
      source_file_page_number: i + 1,
      image_transform: transform,
      text_source: "supplied_ocr",
      words,
      text,
      ocr_confidence: meanConfidence(words),
      render: (o?: RenderOptions) => Promise.resolve(drawWords(p.width, p.height, words, o)),
    };
  });
  return {
    source_file_index: sourceFileIndex,
    filename,
    content_type: "application/json",
    page_count: pages.length,
    pages,
    warnings: [],
  };
}

function clampBox([x1, y1, x2, y2]: Box, width: number, height: number): Box {
  const cx = (v: number) => Math.min(width, Math.max(0, v));
  const cy = (v: number) => Math.min(height, Math.max(0, v));
  return [cx(x1), cy(y1), cx(x2), cy(y2)];
}

/** A stand-in image for pages without one: each word drawn in its box (for image exports and review screens). */
function drawWords(width: number, height: number, words: Word[], o?: RenderOptions): RasterImage {
  // Loaded here, not at import: the native canvas (Skia) costs start-up time every CLI run would pay.
  const { createCanvas } = require("@napi-rs/canvas") as typeof import("@napi-rs/canvas");
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000000";
  ctx.textBaseline = "top";
  const family = drawFontFamily();
  for (const {
    text,
    bounding_box: [x1, y1, x2, y2],
  } of words) {
    ctx.font = `${Math.max(1, Math.round((y2 - y1) * 0.9))}px ${family}`;
    ctx.fillText(text, x1, y1, Math.max(1, x2 - x1));
  }
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; j < rgba.length; i += 3, j += 4) {
    rgb[i] = rgba[j];
    rgb[i + 1] = rgba[j + 1];
    rgb[i + 2] = rgba[j + 2];
  }
  const raster: RasterImage = { data: rgb, width, height, channels: 3 };
  return o?.grayscale ? toGrayscale(raster) : raster;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
