/** Generated pages for extraction tests: rows of cells at given positions, as a text layer or as OCR lines. */
import type { Page, Word } from "../../../src/core/model";

/** A cell: text, x and type size (px); characters are 0.5 of the size wide, lines as high as the size. */
export type Cell = [text: string, x: number, size?: number];

/** A page of rows; the cells of a row are one line (as OCR and text layers join side-by-side columns). */
export function page(rows: Array<[number, Cell[]]>, ocr = false): Page {
  const words: Word[] = [];
  rows.forEach(([y, cells], line) => {
    for (const [text, x, size = 20] of cells) {
      let offset = 0;
      for (const part of text.split(" ")) {
        if (part) {
          const x0 = x + offset * size * 0.5;
          words.push({
            text: part,
            confidence: ocr ? 0.9 : 1,
            bounding_box: [x0, y, x0 + part.length * size * 0.5, y + size],
            line,
          });
        }
        offset += part.length + 1;
      }
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "t.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 2000,
      rasterized_height: 2828,
      source_width: 1000,
      source_height: 1414,
      source_unit: "point",
      render_scale: 2,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: ocr ? "ocr" : "text_layer",
    words,
    text: rows.map(([, cells]) => cells.map(([t]) => t).join(" ")).join("\n"),
    ocr_confidence: ocr ? 0.9 : 1,
  };
}

/** An A4 page scanned at 300 DPI and read by OCR, holding the given words (built word by word by the caller). */
export function a4OcrScan(words: Word[], text: string): Page {
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "scan.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 2480,
      rasterized_height: 3508,
      source_width: 595,
      source_height: 842,
      source_unit: "point",
      render_scale: 2480 / 595,
      effective_dpi: 300,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "ocr",
    words,
    text,
    ocr_confidence: 0.9,
  };
}

/** Lines of [y, height, [[text, x], ...]] (10 px per character); a word's own height given as "text@height". */
export function ocrRows(rows: Array<[number, number, Array<[string, number]>]>): Page {
  const words: Word[] = [];
  rows.forEach(([y, height, cells], line) => {
    for (const [text, x] of cells) {
      let at = x;
      for (const part of text.split(" ")) {
        const [t, h] = part.split("@") as [string, string?];
        const tall = h ? Number(h) : height;
        words.push({
          text: t,
          confidence: 0.9,
          bounding_box: [at, y + height - tall, at + t.length * 10, y + height],
          line,
        });
        at += (t.length + 1) * 10;
      }
    }
  });
  return a4OcrScan(words, "");
}

export type Rows = Array<[number, Cell[]]>;

/** An invoice's head: the seller's name large, the given lines under it, "Invoice No. INV-1042" on the right. */
export const invoiceHead = (name: string, lines: string[]): Rows => [
  [60, [[name, 100, 30]]],
  ...lines.map((l, i): [number, Cell[]] => [100 + 30 * i, [[l, 100]]]),
  [
    300,
    [
      ["Invoice No.", 1000],
      ["INV-1042", 1300],
    ],
  ],
];

/** Label / amount rows of a sums block, from y = 600 down. */
export const sumRows = (rows: Array<[string, string]>): Rows =>
  rows.map(([l, v], i) => [
    600 + 30 * i,
    [
      [l, 1100],
      [v, 1600],
    ],
  ]);
