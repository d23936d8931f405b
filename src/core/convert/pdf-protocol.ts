/** Messages between the main thread (pdf-client.ts) and the pdf.js host worker (pdf-worker.ts). */
import type { Word } from "../model.ts";

export type PdfRequest =
  | { id: number; op: "open"; data: Uint8Array; password?: string }
  | { id: number; op: "page"; pageNumber: number; preferredScale: number; maxSidePx: number; maxRasterPixels: number }
  | { id: number; op: "render"; pageNumber: number; scale: number; width: number; height: number; grayscale: boolean }
  | { id: number; op: "close" };

export interface OpenResult {
  numPages: number;
  attachments: Array<{ filename: string; data: Uint8Array }>;
  warnings: string[];
}

export interface PageResult {
  /** Displayed page size in points: CropBox with /Rotate applied. */
  width: number;
  height: number;
  scale: number;
  usable: boolean;
  reason?: string;
  /** Words in reading order, packed (a structured clone of thousands of small objects per page costs more than
   *  pdf.js's own text extraction): word i is texts[i], box boxes[4i..4i+3] in rasterized pixels, line lines[i]. */
  words: PackedWords;
  text: string;
}

export interface PackedWords {
  texts: string[];
  boxes: Float64Array;
  lines: Int32Array;
}

export function packWords(words: Word[]): PackedWords {
  const boxes = new Float64Array(words.length * 4);
  const lines = new Int32Array(words.length);
  const texts = new Array<string>(words.length);
  words.forEach((w, i) => {
    texts[i] = w.text;
    boxes.set(w.bounding_box, i * 4);
    lines[i] = w.line ?? 0;
  });
  return { texts, boxes, lines };
}

/** Text-layer words: confidence 1 (the text is what the PDF says, not a guess). */
export function unpackWords(packed: PackedWords): Word[] {
  const words = new Array<Word>(packed.texts.length);
  const b = packed.boxes;
  for (let i = 0; i < words.length; i++) {
    words[i] = { text: packed.texts[i], confidence: 1, bounding_box: [b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]], line: packed.lines[i] };
  }
  return words;
}

export interface RenderResult {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

/** A failure inside the worker, carried as plain data (Error objects do not survive postMessage reliably). */
export interface WorkerFailure {
  name: string;
  message: string;
  /** pdf.js PasswordException code: 1 = password needed, 2 = wrong password. */
  passwordCode?: number;
}

export type PdfResponse =
  | { id: number; ok: true; result: OpenResult | PageResult | RenderResult | null }
  | { id: number; ok: false; error: WorkerFailure };
