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
  /** Words in rasterized pixel space, in reading order; empty when the layer is unusable. */
  words: Word[];
  text: string;
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
