/**
 * Messages between the main thread (pdf-host.ts, pdf-client.ts) and the pdf.js host worker (pdf-worker.ts). A worker
 * may hold several documents at once (pdf-host.ts); `doc` names the one a request is about (ids are unique within
 * the process).
 */
import type { Word } from "../../model.ts";
import type { FileIdentity } from "./pdf-bytes.ts";

export type PdfRequest =
  /** `textOnly`: embedded fonts are read for text extraction, not rebuilt for rendering (pdfjs-speed-patches.ts);
   *  such a document refuses render requests. */
  | {
      id: number;
      doc: number;
      op: "open";
      data: Uint8Array;
      password?: string;
      textOnly?: boolean;
      /** Read the document from this file instead of `data` (empty then): pdf-file-source.ts. */
      file?: FileIdentity;
    }
  | ({ id: number; doc: number; op: "page"; pageNumber: number } & PageParams)
  | {
      id: number;
      doc: number;
      op: "render";
      pageNumber: number;
      scale: number;
      width: number;
      height: number;
      grayscale: boolean;
      /** A page that is one scanned image may come back at the image's own resolution (pdf-scan-image.ts). */
      scan?: boolean;
      /** The page's one scanned image at its own resolution whatever its kind (grey, colour): `RenderOptions.own`. */
      own?: boolean;
    }
  /** `collect`: run a full garbage collection in the worker once the document is gone (it served many pages). */
  | { id: number; doc: number; op: "close"; collect?: boolean }
  /** `readers` workers read this document now: this worker keeps its share of pdf.js's memory (pdf-worker-gc.ts). */
  | { id: number; doc: number; op: "readers"; readers: number }
  /** What the worker's pdf.js keeps, as counters (WorkerStats): tests check that it stays bounded. */
  | { id: number; doc: number; op: "stats" }
  /** Unanswered, a new worker's first message: where it lists the files it holds open (pdf-worker-fds.ts). */
  | { id: number; doc: number; op: "fds"; table: Int32Array }
  /** Unanswered: open `data` and read its first `pages` pages before anyone asks (pdf-worker.ts, head start). */
  | ({ id: number; doc: number; op: "head-start"; data: Uint8Array; pages: number } & PageParams);

/** What a page's text extraction depends on besides the document (a page request's parameters). */
export interface PageParams {
  preferredScale: number;
  maxSidePx: number;
  maxRasterPixels: number;
  /** Also send the words' JSON text (PackedWords.json); the text extraction itself does not depend on it. */
  wordsJson?: boolean;
}

/** A request without its id (the host numbers requests). */
export type PdfRequestBody = PdfRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** Counters of a pdf.js worker since it started (pdfjs-memory-patches.ts, pdfjs-font-sharing.ts). */
export interface WorkerStats {
  /** The most objects any document's XRef cache held at once. */
  xrefCachePeak: number;
  /** The most font references a text-only document's font cache held at once (FONT_CACHE_MAX bounds it). */
  fontCachePeak?: number;
  /** pdf.js cleanups run for documents read for their text (pdf-worker-gc.ts pageRead). */
  cacheCleanups?: number;
  /** Fonts answered by an identical font's translation instead of being translated again. */
  sharedFonts: number;
  /** Page dictionaries pdf.js fetched ahead while walking a page tree (CLEANUP_KEEPS_PAGE_COUNTS). */
  pagePrefetches?: number;
  /** Kids of page tree nodes pdf.js's page walks looked at (CLEANUP_KEEPS_PAGE_COUNTS): one or two a page read in order. */
  pageWalkSteps?: number;
  /** Full collections the worker's pacing ran (pdf-worker-gc.ts). */
  collections?: number;
  /** Objects a document's XRef cache may hold in this worker now, and the garbage step (pdf-worker-gc.ts). */
  xrefCacheMax?: number;
  gcStepBytes?: number;
  /** Documents the worker reads from their files, open now (pdf-file-source.ts). */
  fileSources?: number;
  /** Reads of those files, bytes read, bytes pdf.js took one getByte call at a time (pdf-file-source.ts). */
  fileReads?: { reads: number; bytes: number; byteCalls: number };
}

export interface OpenResult {
  numPages: number;
  attachments: Array<{ filename: string; data: Uint8Array }>;
  warnings: string[];
  /** Pages read ahead of the request during the worker's head start (pdf-worker.ts); absent without one. */
  headStartPages?: number;
}

export interface PageResult {
  /** Displayed page size in points: CropBox with /Rotate applied. */
  width: number;
  height: number;
  scale: number;
  usable: boolean;
  reason?: string;
  /** Words in reading order, packed (a structured clone of thousands of small objects per page costs more than
   *  pdf.js's own text extraction): box i is boxes[4i..4i+3] in rasterized pixels, line lines[i]; the texts are
   *  those of `text` (see packWords). */
  words: PackedWords;
  /** The page text: words in reading order joined by " " within a line and "\n" between lines. */
  text: string;
  /** Whether the page paints images; only for usable text layers of at most SHEET_MAX_TEXT characters. */
  paintsImages?: boolean;
}

export interface PackedWords {
  boxes: Float64Array;
  lines: Int32Array;
  /** Only when `text` cannot be split back into the words (never for words made by text-layer.ts). */
  texts?: string[];
  /**
   * `JSON.stringify(unpackWords(this, text))`, made by the pdf.js thread when the page request asked for it
   * (`PageParams.wordsJson`): a run whose state is stored serialises every page's words at its end, on the thread
   * that waits for nothing else then (storage/results/run-json.ts takes this text instead).
   */
  json?: string;
}

/**
 * Packs words in reading order. Word texts never hold whitespace, so with `text` (orderWordsIntoLines' output
 * for the same words) they travel inside it: one string instead of hundreds (a quarter of the message's cost).
 */
export function packWords(words: Word[], text = ""): PackedWords {
  const boxes = new Float64Array(words.length * 4);
  const lines = new Int32Array(words.length);
  let separators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10) separators++;
  }
  const joined = words.length === 0 || separators === words.length - 1;
  words.forEach((w, i) => {
    boxes.set(w.bounding_box, i * 4);
    lines[i] = w.line ?? 0;
  });
  return joined ? { boxes, lines } : { boxes, lines, texts: words.map((w) => w.text) };
}

/** Text-layer words: confidence 1 (the text is what the PDF says, not a guess). */
export function unpackWords(packed: PackedWords, text: string): Word[] {
  const count = packed.lines.length;
  const texts = packed.texts ?? (count > 0 ? text.split(/[ \n]/) : []);
  if (texts.length !== count) throw new Error(`page text has ${texts.length} words, boxes ${count}`);
  const words = new Array<Word>(count);
  const b = packed.boxes;
  for (let i = 0; i < count; i++) {
    words[i] = {
      text: texts[i]!,
      confidence: 1,
      bounding_box: [b[i * 4]!, b[i * 4 + 1]!, b[i * 4 + 2]!, b[i * 4 + 3]!],
      line: packed.lines[i],
    };
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
  | { id: number; ok: true; result: OpenResult | PageResult | RenderResult | WorkerStats | null }
  | { id: number; ok: false; error: WorkerFailure };
