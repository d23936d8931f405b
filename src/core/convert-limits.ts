/**
 * Conversion limits and the render-scale policy.
 *
 * Render-scale policy (one rule for every PDF page): 300 DPI, i.e. render_scale = 300/72, unless that would make
 * a side longer than `maxSidePx` or the page larger than `maxRasterPixels`; then the scale shrinks until both hold.
 * Images keep their own pixels (render_scale 1) under the same two bounds, shrinking the same way.
 */
import { cpuCount } from "./cores";
import { DocprocError } from "./errors.ts";
import type { ImageTransform } from "./model.ts";

export interface ConvertLimits {
  /** Longest rasterized side in pixels. Default 10000. */
  maxSidePx: number;
  /** Rasterized pixel budget per page. Default 40 million (a 300-DPI A3 page is 17.4 MP). */
  maxRasterPixels: number;
  /** Images whose header claims more pixels than this are refused as `too_large` before decoding. Default 300 MP. */
  maxInputPixels: number;
  /** Opening and parsing one PDF. Default 30 s. */
  openTimeoutMs: number;
  /** Text extraction of one PDF page. Default 15 s. */
  pageTimeoutMs: number;
  /** Rendering one page. Default 60 s. */
  renderTimeoutMs: number;
  /**
   * pdf.js workers sharing the text extraction of one long PDF (see convertPages). Default: one per core, at most 4
   * (each holds its own copy of the document and pdf.js's caches; a batch already runs one file per core).
   */
  pdfWorkers: number;
  /**
   * Pages converted from one file at most (after page_limit). A file that would need more is refused as
   * `too_large` before any page is read: a 2 KB PDF can declare a page tree of 99,999,999 pages. Default 10,000.
   */
  maxFilePages: number;
  /** TIFF directories counted at most when enumerating pages (the walk is linear; this bounds it). Default 100,000. */
  maxTiffDirectories: number;
  /**
   * Resident memory a long PDF's cold helper worker may take the run to (pdf-memory-budget.ts). Default: half of
   * what the process may use (its cgroup's limit, else the machine's RAM); absent means that default.
   */
  memoryBudgetBytes?: number;
}

export const DEFAULT_LIMITS: ConvertLimits = {
  maxSidePx: 10_000,
  maxRasterPixels: 40_000_000,
  maxInputPixels: 300_000_000,
  openTimeoutMs: 30_000,
  pageTimeoutMs: 15_000,
  renderTimeoutMs: 60_000,
  pdfWorkers: Math.min(4, cpuCount()),
  maxFilePages: 10_000,
  maxTiffDirectories: 100_000,
};

/** Refuses a file whose pages to convert (`wanted` of `total`) exceed `maxFilePages`, before any is read. */
export function checkPageCount(wanted: number, total: number, limits: Pick<ConvertLimits, "maxFilePages">): void {
  if (wanted <= limits.maxFilePages) return;
  throw new DocprocError(
    "too_large",
    `the file has ${total} pages; at most ${limits.maxFilePages} pages of one file are converted (use a page limit, or raise the limit)`,
    { details: { page_count: total, max_pages: limits.maxFilePages } },
  );
}

export function resolveLimits(limits?: Partial<ConvertLimits>): ConvertLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}

export const PDF_RENDER_DPI = 300;

/** The largest scale ≤ `preferred` that keeps a width × height page within the side and pixel bounds. */
export function boundedScale(
  width: number,
  height: number,
  preferred: number,
  limits: Pick<ConvertLimits, "maxSidePx" | "maxRasterPixels">,
): number {
  let scale = preferred;
  const longest = Math.max(width, height);
  if (longest * scale > limits.maxSidePx) scale = limits.maxSidePx / longest;
  if (width * height * scale * scale > limits.maxRasterPixels)
    scale = Math.sqrt(limits.maxRasterPixels / (width * height));
  // Rounding to whole pixels may overshoot a bound by a pixel row; shave the scale until the rounded size fits.
  const fits = (s: number) => {
    const r = rasterSize(width, height, s);
    return Math.max(r.width, r.height) <= limits.maxSidePx && r.width * r.height <= limits.maxRasterPixels;
  };
  while (!fits(scale) && scale > 1e-6) scale *= 0.9995;
  return scale;
}

/** Rasterized size for a source size at a scale: rounded, never below one pixel. */
export function rasterSize(width: number, height: number, scale: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** image_transform of a page as conversion produces it (rotation 0: orientation detection belongs to OCR). */
export function makeTransform(
  source: { width: number; height: number },
  unit: "point" | "pixel",
  scale: number,
  effectiveDpi: number | null,
): ImageTransform {
  const raster = rasterSize(source.width, source.height, scale);
  return {
    rasterized_width: raster.width,
    rasterized_height: raster.height,
    source_width: roundTo(source.width, 3),
    source_height: roundTo(source.height, 3),
    source_unit: unit,
    render_scale: scale,
    effective_dpi: effectiveDpi === null ? null : roundTo(effectiveDpi, 3),
    coordinate_system: "top-left-origin",
    rotation: 0,
  };
}

function roundTo(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
