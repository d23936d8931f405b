import type { RasterImage, Word } from "../../model.ts";

/** Options of one recognition call. */
export interface RecognizeOptions {
  /** Tesseract page segmentation mode; 3 (fully automatic layout) by default. */
  psm?: number;
  /** Resolution of the image when known; lets tesseract skip its own x-height based estimate. */
  dpi?: number;
  /**
   * Tesseract language models to read with (`ocr.languages`), English by default. Languages the engine cannot load
   * are left out and named in `OcrResult.warnings`; the call MUST NOT fail because of them.
   */
  languages?: readonly string[];
}

export interface OcrResult {
  /** Words in reading order, boxes [x1, y1, x2, y2] in the pixel space of the image passed in. */
  words: Word[];
  /** Words of a line joined by one space, lines joined by "\n". */
  text: string;
  /** Mean word confidence 0..1, null when no word was found. */
  confidence: number | null;
  /** What the reading could not do as asked (a requested language that is not installed). */
  warnings?: string[];
}

/**
 * A recognition engine shared by the whole process.
 * - `recognize` MUST accept grey, RGB and RGBA rasters, MUST NOT mutate the input, and SHOULD be called concurrently
 *   (calls beyond `workers` queue up inside the engine).
 * - A failed call rejects with DocprocError("ocr_failed"); the engine stays usable for the next call.
 * - `close` MUST release every worker or child process; later `recognize` calls reject.
 */
export interface OcrEngine {
  /** "wasm" (tesseract.js) or "native" (tesseract CLI); a name like "native (tesseract 5.3.0)" is allowed. */
  name: string;
  /** How many recognitions run at once; callers size their own page concurrency from it. */
  workers: number;
  recognize(img: RasterImage, opts?: RecognizeOptions): Promise<OcrResult>;
  /**
   * Reads several small images (single lines of the OCR second look) with the same options in one go, so an engine
   * that starts a process per call starts one for all of them. One result per image, in order; null for an image
   * that could not be read. MUST NOT reject. Optional: callers fall back to `recognize` per image.
   */
  recognizeMany?(imgs: RasterImage[], opts?: RecognizeOptions): Promise<Array<OcrResult | null>>;
  /**
   * Starts what the first recognitions need (workers, model loading) in the background, so that a page does not wait
   * for them: called when a run knows it will read pages, before their rasters are ready. `pages`: how many pages
   * the caller will have read at most (a worker more than pages in flight is never started ahead; default: as many
   * as the engine has workers). Optional and idempotent; resolves when they are ready and MUST NOT reject (what
   * failed to start is started again by the first call that needs it). `languages` as in RecognizeOptions.
   */
  warm?(languages?: readonly string[], pages?: number): Promise<void>;
  /**
   * Whether the engine can read with `language` (its model is installed). Optional: callers that choose a language
   * themselves (the OCR stage's choice from the page's words) skip a language an engine cannot tell it has. Before a
   * lazily started engine has started it says false.
   */
  has?(language: string): boolean;
  close(): Promise<void>;
}

export const DEFAULT_PSM = 3;
