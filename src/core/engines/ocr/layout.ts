import type { Box } from "../../model.ts";
import { downscale } from "./downscale.ts";
import type { GreyImage } from "../../imaging/grey.ts";

/**
 * Cheap page analysis before OCR, on a copy downscaled to ≤ ANALYSIS_SIZE px: where the ink is, whether text lines
 * run across (0/180°) or down (90/270°) the page, and their small skew. Projection profiles: ink projected across
 * text lines at the right angle piles up into sharp peaks, so the angle with the sharpest profile (sum of squared
 * differences of neighbouring bins) is the line direction.
 */
export interface PageLayout {
  /** Bounding box of the ink in source pixels, null for a blank page. */
  inkBox: Box | null;
  /**
   * Everything that is not paper white, padded by a margin tesseract likes around text, in source pixels; null for a
   * blank page. Reading only this region skips the empty margins of a scan (cheaper thresholding and layout).
   */
  contentBox: Box | null;
  /** "across" when lines run along x (upright or upside down), "down" when along y; null when undecided. */
  lineAxis: "across" | "down" | null;
  /** Clockwise skew of the text lines in degrees (same value whichever quarter turn makes the page upright). */
  skew: number;
  /**
   * Median height of the text lines (ascender to descender) in source pixels, measured across `lineAxis`; null when
   * there is no line axis or too few lines. Small values mean text too small for tesseract to read well.
   */
  lineHeight: number | null;
}

const ANALYSIS_SIZE = 1000;
const MAX_POINTS = 120_000;
const MAX_SKEW = 6;
/** Grey level from which a pixel of the analysis copy counts as blank paper. */
const PAPER_WHITE = 245;
/** White border kept around the content (px): tesseract reads text touching the image edge less well. */
const CONTENT_MARGIN = 32;
/** Below this, tesseract copes by itself and resampling would only blur. */
export const MIN_DESKEW = 0.3;

export function analyzeLayout(img: GreyImage): PageLayout {
  const factor = Math.max(1, Math.ceil(Math.max(img.width, img.height) / ANALYSIS_SIZE));
  const small = downscale(img, factor);
  const hist = histogram(small.data);
  const threshold = thresholdOf(hist, small.data.length);
  const scan = scanPage(small, threshold, inkCountOf(hist, threshold));
  const points = scan.points;
  if (points.box[2] < 0 || points.inkCount < 50)
    return { inkBox: null, contentBox: null, lineAxis: null, skew: 0, lineHeight: null };
  const inkBox: Box = [
    points.box[0] * factor,
    points.box[1] * factor,
    (points.box[2] + 1) * factor,
    (points.box[3] + 1) * factor,
  ];
  const contentBox = paperBox(scan.paper, factor, img);
  if (points.count === 0)
    return { inkBox: [0, 0, img.width, img.height], contentBox, lineAxis: null, skew: 0, lineHeight: null };
  const across = bestAngle(points, 0);
  const down = bestAngle(points, 90);
  const best = across.score >= down.score ? across : down;
  const ratio = Math.max(across.score, down.score) / Math.max(1, Math.min(across.score, down.score));
  const lineAxis = ratio < 1.15 ? null : across.score >= down.score ? "across" : "down";
  if (lineAxis === null) return { inkBox, contentBox, lineAxis, skew: 0, lineHeight: null };
  const skew = best.angle - (best === across ? 0 : 90);
  // An edge-of-range optimum or one barely sharper than no rotation is not a measurement.
  const reliable = Math.abs(skew) < MAX_SKEW - 0.5 && best.score > best.scoreAtZero * 1.03;
  const measured = reliable && Math.abs(skew) >= MIN_DESKEW ? Math.round(skew * 100) / 100 : 0;
  return {
    inkBox,
    contentBox,
    lineAxis,
    skew: measured,
    lineHeight: medianLineHeight(scan, points.box, lineAxis, factor),
  };
}

/** Runs thinner than this (analysis pixels) are rules, underlines or dotted borders, not text lines. */
const MIN_LINE_RUN = 4;

/**
 * Text lines as runs of inked rows (columns when lines run down) in the ink box of the analysis copy; the median run
 * height in source pixels. A skew or a table's vertical rules merge runs, which only overestimates the height.
 */
function medianLineHeight(scan: PageScan, box: Box, axis: "across" | "down", factor: number): number | null {
  const [x1, y1, x2, y2] = box;
  const across = axis === "across";
  // The box holds every ink pixel, so the page's ink per row (column) within it is the ink per row of the box.
  const counts = across ? scan.rowInk.subarray(y1, y2 + 1) : scan.columnInk.subarray(x1, x2 + 1);
  const minInk = Math.max(1, Math.round(((across ? x2 - x1 : y2 - y1) + 1) * 0.005));
  const runs: number[] = [];
  let run = 0;
  for (let i = 0; i <= counts.length; i++) {
    if (i < counts.length && counts[i] >= minInk) run++;
    else {
      if (run >= MIN_LINE_RUN) runs.push(run);
      run = 0;
    }
  }
  if (runs.length < 3) return null;
  runs.sort((a, b) => a - b);
  return runs[runs.length >> 1] * factor;
}

/** The extent of every pixel darker than paper (even faint print), padded and clamped, in source pixels. */
function paperBox([x1, y1, x2, y2]: Box, factor: number, img: GreyImage): Box {
  const pad = factor + CONTENT_MARGIN;
  return [
    Math.max(0, x1 * factor - pad),
    Math.max(0, y1 * factor - pad),
    Math.min(img.width, (x2 + 1) * factor + pad),
    Math.min(img.height, (y2 + 1) * factor + pad),
  ];
}

interface InkPoints {
  xs: Float32Array;
  ys: Float32Array;
  /** Points usable for profiles (0 when the page is mostly dark, e.g. a photo). */
  count: number;
  /** All ink pixels of the analysis copy. */
  inkCount: number;
  box: Box;
  diagonal: number;
}

export function otsuThreshold(img: GreyImage): number {
  return thresholdOf(histogram(img.data), img.data.length);
}

/** Ink is at or below the threshold and below 200: the pixels of the histogram's levels below min(threshold + 1, 200). */
function inkCountOf(hist: Float64Array, threshold: number): number {
  let count = 0;
  for (let v = 0; v < Math.min(threshold + 1, 200); v++) count += hist[v]!;
  return count;
}

/** Otsu's threshold of a histogram of `total` pixels. */
function thresholdOf(hist: Float64Array, total: number): number {
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    weightB += hist[t];
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * hist[t];
    const between = weightB * weightF * (sumB / weightB - (sumAll - sumB) / weightF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/**
 * Counts of each grey level (as floats, for the threshold's arithmetic). Four interleaved integer histograms: a page
 * is mostly one paper tone, and incrementing one counter pixel after pixel waits on its own previous store each time.
 */
function histogram(data: Uint8Array): Float64Array {
  const counts = new Int32Array(1024);
  const n = data.length;
  const end = n - (n & 3);
  let i = 0;
  for (; i < end; i += 4) {
    counts[data[i]!]!++;
    counts[256 + data[i + 1]!]!++;
    counts[512 + data[i + 2]!]!++;
    counts[768 + data[i + 3]!]!++;
  }
  for (; i < n; i++) counts[data[i]!]!++;
  const hist = new Float64Array(256);
  for (let v = 0; v < 256; v++) hist[v] = counts[v]! + counts[256 + v]! + counts[512 + v]! + counts[768 + v]!;
  return hist;
}

/** One pass over the analysis copy: ink points (every stride-th ink pixel), the ink box, ink per row and column, paper's extent. */
interface PageScan {
  points: InkPoints;
  /** Extent of the pixels darker than PAPER_WHITE, in analysis pixels ([width, height, -1, -1] when none). */
  paper: Box;
  rowInk: Int32Array;
  columnInk: Int32Array;
}

/** `count` is the number of ink pixels (from the histogram), which sets the sampling stride. */
function scanPage(img: GreyImage, threshold: number, count: number): PageScan {
  const { width, height, data } = img;
  const below = Math.min(threshold + 1, 200);
  const stride = Math.max(1, Math.ceil(count / MAX_POINTS));
  const xs = new Float32Array(Math.ceil(count / stride) + 1);
  const ys = new Float32Array(xs.length);
  const rowInk = new Int32Array(height);
  const columnInk = new Int32Array(width);
  let [ix1, iy1, ix2, iy2] = [width, height, -1, -1];
  let [px1, py1, px2, py2] = [width, height, -1, -1];
  let untilSample = 1; // the first ink pixel is sampled, then every stride-th
  let n = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let inked = 0;
    for (let x = 0; x < width; x++) {
      const v = data[row + x]!;
      if (v >= PAPER_WHITE) continue;
      if (x < px1) px1 = x;
      if (x > px2) px2 = x;
      if (y < py1) py1 = y;
      py2 = y;
      if (v >= below) continue;
      inked++;
      columnInk[x]!++;
      if (x < ix1) ix1 = x;
      if (y < iy1) iy1 = y;
      if (x > ix2) ix2 = x;
      if (y > iy2) iy2 = y;
      if (--untilSample === 0) {
        untilSample = stride;
        if (n < xs.length) {
          xs[n] = x - width / 2;
          ys[n] = y - height / 2;
          n++;
        }
      }
    }
    rowInk[y] = inked;
  }
  // A page that is mostly "ink" (a photo, a dark scan) gives no usable profile either.
  const usable = count < width * height * 0.5 ? n : 0;
  const points = {
    xs,
    ys,
    count: usable,
    inkCount: count,
    box: [ix1, iy1, ix2, iy2] as Box,
    diagonal: Math.hypot(width, height),
  };
  return { points, paper: [px1, py1, px2, py2], rowInk, columnInk };
}

/**
 * Sharpness of the ink's profile across lines at `degrees`. Points come in raster order, so neighbours mostly fall
 * into the same bin; four interleaved sets of bins (`bins` holds four counters per bin) keep each increment from
 * waiting on the one before it. The counts, and so the score (a sum of integer squares), are the same as with one.
 */
function profileScore(p: InkPoints, degrees: number, bins: Int32Array): number {
  const a = (degrees * Math.PI) / 180;
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const offset = p.diagonal / 2 + 1;
  const { xs, ys, count } = p;
  bins.fill(0);
  const end = count - (count & 3);
  let i = 0;
  for (; i < end; i += 4) {
    bins[((cos * ys[i]! - sin * xs[i]! + offset) | 0) * 4]!++;
    bins[((cos * ys[i + 1]! - sin * xs[i + 1]! + offset) | 0) * 4 + 1]!++;
    bins[((cos * ys[i + 2]! - sin * xs[i + 2]! + offset) | 0) * 4 + 2]!++;
    bins[((cos * ys[i + 3]! - sin * xs[i + 3]! + offset) | 0) * 4 + 3]!++;
  }
  for (; i < count; i++) bins[((cos * ys[i]! - sin * xs[i]! + offset) | 0) * 4]!++;
  let score = 0;
  let previous = bins[0]! + bins[1]! + bins[2]! + bins[3]!;
  for (let b = 4; b < bins.length; b += 4) {
    const here = bins[b]! + bins[b + 1]! + bins[b + 2]! + bins[b + 3]!;
    const d = here - previous;
    score += d * d;
    previous = here;
  }
  return score;
}

/** Coarse search over ±MAX_SKEW around `base` in 0.5° steps, then refined to 0.1°. */
function bestAngle(p: InkPoints, base: number): { angle: number; score: number; scoreAtZero: number } {
  const bins = new Int32Array((Math.ceil(p.diagonal) + 4) * 4);
  const scoreAtZero = profileScore(p, base, bins);
  let angle = base;
  let score = scoreAtZero;
  for (let d = -MAX_SKEW; d <= MAX_SKEW; d += 0.5) {
    const s = profileScore(p, base + d, bins);
    if (s > score) [angle, score] = [base + d, s];
  }
  const coarse = angle;
  for (let d = -0.4; d <= 0.4001; d += 0.1) {
    const s = profileScore(p, coarse + d, bins);
    if (s > score) [angle, score] = [coarse + d, s];
  }
  return { angle, score, scoreAtZero };
}

export { textLikeness } from "./text-likeness.ts";
