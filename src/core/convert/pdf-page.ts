/**
 * One PDF page as a `Page`: its text layer asked of a pdf.js worker (an unreadable page becomes an empty A4 page with
 * a warning, so the file's page numbering never shifts) and a `render()` that rasterizes it on demand.
 */
import { DocprocError } from "../errors.ts";
import type { Page, RasterImage, SourceInput } from "../model.ts";
import { makeTransform, PDF_RENDER_DPI, type ConvertLimits } from "../convert-limits.ts";
import { isFatal, isInterrupted, type PdfWorkerClient } from "../engines/pdf/pdf-client.ts";
import { checkPackedWords, withPackedWords } from "./page-words.ts";
import { packWords, type PageResult, type RenderResult } from "../engines/pdf/pdf-protocol.ts";
import type { RenderOptions } from "../imaging/render.ts";

export interface PdfConvertOptions {
  firstPageNumber: number;
  maxPages: number | null;
  password?: string;
  signal?: AbortSignal;
  limits: ConvertLimits;
  /** See ConvertOptions.onPage (stages/convert/index.ts). */
  onPage?: (page: Page, file: { attachments: number; pages: number }) => void;
  /** See ConvertOptions.wordsJson. */
  wordsJson?: boolean;
}

// Used for a page pdf.js cannot even load: we still return the page (the file's page numbering must not shift).
const A4_POINTS = { width: 595.276, height: 841.89 };

export async function convertPage(
  client: PdfWorkerClient,
  renderClient: PdfWorkerClient,
  src: SourceInput,
  n: number,
  opts: PdfConvertOptions,
  warnings: string[],
): Promise<Page> {
  const { result, loaded, unreadable } = await askPage(client, n, opts, warnings);
  if (loaded && !result.usable && result.reason && result.reason !== "no text layer") {
    warnings.push(`page ${n}: ${result.reason}; the page will be OCR'd`);
  }
  checkPackedWords(result.words, result.text);
  const transform = makeTransform(result, "point", result.scale, result.scale * 72);
  // The render closure takes the scale, not `result`: holding the worker's answer would keep the page's packed
  // words alive with the page after page-words.ts spilled them (2 ArrayBuffers a page, ~7 KB of an invoice page).
  const scale = result.scale;
  const render = (renderOpts?: RenderOptions): Promise<RasterImage> =>
    loaded
      ? renderWith(
          renderClient,
          n,
          scale,
          transform.rasterized_width,
          transform.rasterized_height,
          renderOpts,
          opts.limits.renderTimeoutMs,
        )
      : Promise.resolve(blankRaster(transform.rasterized_width, transform.rasterized_height, renderOpts));
  const wordCount = result.words.lines.length;
  // Text-layer words stay packed until a stage reads them (page-words.ts); `words` keeps its place among the keys.
  const page: Omit<Page, "words"> & { words?: undefined } = {
    page_number: opts.firstPageNumber + n - 1,
    source_file_index: src.index,
    source_filename: src.filename,
    source_file_page_number: n,
    image_transform: transform,
    text_source: result.usable ? "text_layer" : "none",
    words: undefined,
    text: result.text,
    // Every text-layer word has confidence 1 (unpackWords).
    ocr_confidence: wordCount === 0 ? null : 1,
    ...(result.paintsImages !== undefined ? { paints_images: result.paintsImages } : {}),
    ...(unreadable !== null ? { unreadable } : {}),
    render,
  };
  return withPackedWords(page, result.words, result.text);
}

/** The worker's reading of page n; a page it cannot read is an empty A4 page (`loaded` false) with a warning. */
async function askPage(
  client: PdfWorkerClient,
  n: number,
  opts: PdfConvertOptions,
  warnings: string[],
): Promise<{ result: PageResult; loaded: boolean; unreadable: string | null }> {
  const preferredScale = PDF_RENDER_DPI / 72;
  const ask = () =>
    client.request<PageResult>(
      {
        op: "page",
        pageNumber: n,
        preferredScale,
        maxSidePx: opts.limits.maxSidePx,
        maxRasterPixels: opts.limits.maxRasterPixels,
        ...(opts.wordsJson ? { wordsJson: true } : {}),
      },
      opts.limits.pageTimeoutMs,
      `page ${n}`,
    );
  try {
    // Interrupted: another request (of this file or of another sharing the worker) timed out or was aborted; a
    // file restarts pdf.js a bounded number of times, so this ends.
    for (;;) {
      try {
        return { result: await ask(), loaded: true, unreadable: null };
      } catch (err) {
        if (!isInterrupted(err)) throw err;
      }
    }
  } catch (err) {
    // A page that cannot be read is survivable unless the whole worker gave up (timeouts exhausted, abort).
    if (isFatal(err, opts.signal)) throw err;
    warnings.push(`page ${n}: could not be read (${(err as Error).message}); it is treated as an empty A4 page`);
    const result: PageResult = {
      ...A4_POINTS,
      scale: preferredScale,
      usable: false,
      reason: "page could not be read",
      words: packWords([]),
      text: "",
    };
    return { result, loaded: false, unreadable: (err as Error).message.replace(/^the PDF could not be read: /, "") };
  }
}

async function renderWith(
  client: PdfWorkerClient,
  pageNumber: number,
  scale: number,
  width: number,
  height: number,
  renderOpts: RenderOptions | undefined,
  timeoutMs: number,
): Promise<RasterImage> {
  const grayscale = renderOpts?.grayscale ?? false;
  const scan = grayscale && renderOpts?.scan === true;
  const own = grayscale && renderOpts?.own === true;
  try {
    const raster = await client.request<RenderResult>(
      { op: "render", pageNumber, scale, width, height, grayscale, ...(scan ? { scan } : {}), ...(own ? { own } : {}) },
      timeoutMs,
      `rendering page ${pageNumber}`,
    );
    return { data: raster.data, width: raster.width, height: raster.height, channels: raster.channels };
  } catch (err) {
    if (isInterrupted(err)) return renderWith(client, pageNumber, scale, width, height, renderOpts, timeoutMs);
    if (err instanceof DocprocError && err.code !== "corrupt_file") throw err;
    // pdf.js draws what it can; an error here means nothing could be drawn. A white page keeps the batch going
    // (conversion already recorded whether the page was readable).
    return blankRaster(width, height, renderOpts);
  }
}

function blankRaster(width: number, height: number, renderOpts?: RenderOptions): RasterImage {
  const channels = renderOpts?.grayscale ? 1 : 3;
  return { data: new Uint8Array(width * height * channels).fill(255), width, height, channels };
}
