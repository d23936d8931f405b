/**
 * Conversion stage: one source file → pages with geometry and, where the file has one, a usable text layer. The
 * run's Stage (`convertStage`) is in stage.ts beside this file; the PDF engine in engines/pdf/.
 *
 * Contract (docs/ARCHITECTURE.md):
 * - The format MUST be recognised by content (magic bytes), never by file name or declared content type.
 * - Every returned page MUST carry `image_transform` (rotation 0: orientation is the OCR stage's business) and a
 *   `render()` that rasterizes it lazily at `rasterized_width × rasterized_height`, un-rotated; boxes are in that
 *   pixel space. PDF pages are never rendered during conversion.
 * - `page_count` MUST be the file's real page count; only the first `maxPages` pages are returned.
 * - A file that cannot be read at all MUST throw DocprocError (`empty_file`, `corrupt_file`, `encrypted_file`,
 *   `wrong_password`, `unsupported_format`, `too_large`, `timeout`); survivable page problems go to `warnings`.
 * - The caller MUST call `close()` once it no longer renders pages (it releases the PDF worker). It MAY call
 *   `suspend()` when it expects few renders for a while: the PDF's memory is given back, and a render opens it again.
 */
import { DocprocError } from "../../errors.ts";
import type { ConvertedFile, Page, SourceInput } from "../../model.ts";
import { convertImage } from "../../convert/image.ts";
import { resolveLimits, type ConvertLimits } from "../../convert-limits.ts";
import { convertPdf } from "../../convert/pdf.ts";
import { describeUnknown, sniffFormat } from "../../convert/sniff.ts";
import { convertEInvoiceXml } from "../../convert/xml.ts";
import { timeStage } from "../../timing.ts";
import { headBytes, wholeBytes } from "../../source-data.ts";

export { convertText, convertOcrData, parseOcrData, OcrDataSchema } from "../../convert/supplied.ts";
export { renderPageToRaster, toGrayscale, toRgb, type RenderOptions } from "../../imaging/render.ts";
export { DEFAULT_LIMITS, type ConvertLimits } from "../../convert-limits.ts";
export { prewarmPdfWorkers } from "../../engines/pdf/pdf-client.ts";

export interface ConvertOptions {
  /** Transaction page number of this file's first page (1-based). */
  firstPageNumber: number;
  /** Return at most this many pages (page_limit); null for all. */
  maxPages: number | null;
  /** PDF password; falls back to `src.password`. */
  password?: string;
  signal?: AbortSignal;
  limits?: Partial<ConvertLimits>;
  /**
   * Called with each PDF page as soon as its text layer is read, while later pages are still being converted (the
   * runner reads pages ahead there, see read-ahead.ts beside this file). `file` tells how many attachments the file
   * has and how many of its pages are converted. MUST NOT throw; it runs on the main thread between page requests.
   */
  onPage?: (page: Page, file: { attachments: number; pages: number }) => void;
  /**
   * The run stores its state: PDF pages come with their words' JSON text too (PackedWords.json), made on the pdf.js
   * thread while the pages are read, instead of on the pipeline thread after the last one (500 pages: ~40 ms).
   */
  wordsJson?: boolean;
}

export type ConvertedSource = ConvertedFile & { close(): Promise<void>; suspend?(): Promise<void> };

export async function convertSource(src: SourceInput, opts: ConvertOptions): Promise<ConvertedSource> {
  try {
    return await timeStage("convert", () => convertByFormat(src, opts));
  } catch (err) {
    if (err instanceof DocprocError)
      throw err.stage
        ? err
        : new DocprocError(err.code, err.message, {
            stage: "convert",
            retryable: err.retryable,
            cause: err.cause,
            details: err.details,
          });
    // Input problems are DocprocErrors by the time they get here; anything else is a bug, and says so.
    throw new DocprocError("internal", `${src.filename}: ${(err as Error)?.message ?? String(err)}`, {
      stage: "convert",
      cause: err,
    });
  }
}

async function convertByFormat(src: SourceInput, opts: ConvertOptions): Promise<ConvertedSource> {
  if (src.data.byteLength === 0) throw new DocprocError("empty_file", `${src.filename} is empty (0 bytes)`);
  const limits = resolveLimits(opts.limits);
  const format = sniffFormat(headBytes(src.data));
  if (format === "unknown") {
    // A standalone XRechnung/UBL/CII e-invoice: read from its XML, shown as one text page (never left in its file).
    const xml = convertEInvoiceXml(wholeBytes(src.data), src.filename, opts.firstPageNumber, src.index);
    if (xml) return { ...xml, close: async () => {} };
    throw new DocprocError("unsupported_format", `${src.filename} is ${describeUnknown(headBytes(src.data))}`);
  }
  if (format === "pdf") {
    return convertPdf(src, {
      firstPageNumber: opts.firstPageNumber,
      maxPages: opts.maxPages,
      password: opts.password,
      signal: opts.signal,
      limits,
      onPage: opts.onPage,
      wordsJson: opts.wordsJson,
    });
  }
  const file = await convertImage(src, format, {
    firstPageNumber: opts.firstPageNumber,
    maxPages: opts.maxPages,
    limits,
  });
  return { ...file, close: async () => {} };
}
