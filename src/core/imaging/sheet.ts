/**
 * A sheet of paper photographed on a darker surface (a till receipt on a table, a page on a desk): where its four
 * edges are, so the OCR stage can read the paper alone, squared up (sheet-warp.ts), instead of a frame whose dark
 * surround makes tesseract's thresholding and layout analysis lose whole columns and whose turn and perspective
 * no single skew angle describes.
 *
 * On a small copy in the log domain (lighting multiplies, so the paper/table step has one size under any light), each
 * row is scanned from both ends and each column from top and bottom for the first clear dark-to-bright step; a
 * robust straight line is fitted to each side's steps. A side without a line takes the frame's border when the paper
 * runs out of the frame there; when the sides beside it end inside the frame (the paper's edge lost on a busy table or
 * in a shadow), it runs through where they end (sheet-bound.ts), so the table beyond is not read with the receipt.
 * A scan or a rendered page has no darker surround and no steps: no sheet, nothing changes.
 */
import type { GreyImage } from "./grey.ts";
import { maxOf, minOf } from "../arrays";
import { boundSide, fit, type SideLine, type Point, type Side, type Small } from "./sheet-bound.ts";

export type { Point } from "./sheet-bound.ts";

export interface Sheet {
  /** The paper's corners in source pixels: top-left, top-right, bottom-right, bottom-left. */
  corners: [Point, Point, Point, Point];
}

/** Longest side of the analysis copy. */
const SMALL = 480;
/** A step counts as the paper's edge from this log-brightness rise (brightness × 1.5). */
const STEP = Math.log(1.5);
/** Distance (analysis pixels) over which a step is measured, and how far past it the paper must stay bright. */
const REACH = 2;
const BEYOND = 6;
/** How far (analysis pixels) the sides move inwards from the middle of the edge's step. */
const RIM = REACH + 1;
/** A side's line needs steps on this share of the rows (columns) the paper spans. */
const SUPPORT = 0.4;
/** Steps farther than this (analysis pixels) from a side's line are not on it. */
const NEAR_LINE = 1.5;
/** Sides of a sheet lean at most this much (tan): a page turned more is a quarter turn's business. */
const MAX_LEAN = Math.tan((25 * Math.PI) / 180);
/** What sheet-bound.ts measures a lost side with. */
const EDGE = { step: STEP, rim: RIM, maxLean: MAX_LEAN };
/** The paper covers at least this share of the frame. */
const MIN_AREA = 0.15;

/** The photographed sheet of `img`, or null when the image is not a sheet on a darker surface. */
export function findSheet(img: GreyImage): Sheet | null {
  const f = Math.max(1, Math.ceil(Math.max(img.width, img.height) / SMALL));
  // A scan or a rendered page: paper at every border, so no scan can find a step (the same answer, without the small
  // copy of the whole page: 15-20 ms a 300-DPI page, on every scanned page).
  if (paperAtEveryBorder(img, f)) return null;
  const small = logShrink(img, f);
  const { width: w, height: h } = small;
  // x = a·y + b for the left and right sides; y = a·x + b for the top and bottom ones.
  const found = {
    left: sideLine(scanSteps(small, "row", 1), h),
    right: sideLine(scanSteps(small, "row", -1), h),
    top: sideLine(scanSteps(small, "column", 1), w),
    bottom: sideLine(scanSteps(small, "column", -1), w),
  };
  // Two sides at least: a receipt running out of the frame at both ends keeps its left and right edges, but one
  // edge alone may be a table's border or a shadow.
  if (Object.values(found).filter(Boolean).length < 2) return null;
  const left = found.left ?? boundSide(small, [found.top, found.bottom], -1, "column", EDGE);
  const right = found.right ?? boundSide(small, [found.top, found.bottom], 1, "column", EDGE);
  const top = found.top ?? boundSide(small, [found.left, found.right], -1, "row", EDGE);
  const bottom = found.bottom ?? boundSide(small, [found.left, found.right], 1, "row", EDGE);
  // Each found side moves in past the blurred rim of the paper's edge: a dark rim along the whole sheet is a rule
  // to the layout analysis (it decides the line direction) and a column of "|" to tesseract.
  const L = left ? { a: left.a, b: left.b + RIM } : { a: 0, b: 0 };
  const R = right ? { a: right.a, b: right.b - RIM } : { a: 0, b: img.width / f };
  const T = top ? { a: top.a, b: top.b + RIM } : { a: 0, b: 0 };
  const B = bottom ? { a: bottom.a, b: bottom.b - RIM } : { a: 0, b: img.height / f };
  const corners = [cross(L, T), cross(R, T), cross(R, B), cross(L, B)];
  if (corners.some((c) => !c)) return null;
  const quad = corners as Point[];
  if (!convex(quad) || area(quad) < MIN_AREA * w * h) return null;
  const sides = [found.top, found.right, found.bottom, found.left].map(Boolean);
  if (!brighterInside(small, quad) && !brighterAlongEdges(small, quad, sides)) return null;
  const scaled = quad.map(([x, y]) => [x * f, y * f] as Point);
  return { corners: scaled as Sheet["corners"] };
}

/**
 * Whether every cell on the border of the analysis copy is so bright that no scan starting there can find a step:
 * `scanSteps` needs the paper past a step STEP × 0.6 brighter than where its scan began, and nothing is brighter than
 * white. Reads only the border cells, each averaged as `logShrink` averages it.
 */
export function paperAtEveryBorder(img: GreyImage, f: number): boolean {
  const width = Math.floor(img.width / f);
  const height = Math.floor(img.height / f);
  if (width < 1 || height < 1) return false;
  const floor = Math.fround(Math.log(256)) - STEP * 0.6;
  const bright = (x: number, y: number) => {
    let sum = 0;
    for (let dy = 0; dy < f; dy++) {
      const row = (y * f + dy) * img.width + x * f;
      for (let dx = 0; dx < f; dx++) sum += img.data[row + dx]!;
    }
    return Math.fround(Math.log(1 + sum / (f * f))) > floor;
  };
  for (let x = 0; x < width; x++) if (!bright(x, 0) || !bright(x, height - 1)) return false;
  for (let y = 0; y < height; y++) if (!bright(0, y) || !bright(width - 1, y)) return false;
  return true;
}

/** Small copies made so far in this process (a count for tests: a scan makes none). */
let smallCopies = 0;

export function sheetSmallCopies(): number {
  return smallCopies;
}

/** Box average by `f`, then log brightness (× 32, so steps are in a float array of modest values). */
function logShrink(img: GreyImage, f: number): Small {
  const width = Math.floor(img.width / f);
  const height = Math.floor(img.height / f);
  const data = new Float32Array(width * height);
  smallCopies++;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * img.width + x * f;
        for (let dx = 0; dx < f; dx++) sum += img.data[row + dx]!;
      }
      data[y * width + x] = Math.log(1 + sum / (f * f));
    }
  return { data, width, height };
}

/**
 * For every row (`row`) or column, the first place from one end (`dir` 1: left/top, -1: right/bottom) where the
 * brightness rises by STEP and stays up for BEYOND pixels: [position along the scan, index of the row or column].
 * A scan that starts on bright paper has no step (the paper runs out of the frame there).
 */
function scanSteps(img: { data: Float32Array; width: number; height: number }, along: "row" | "column", dir: 1 | -1) {
  const { data, width, height } = img;
  const [lines, length] = along === "row" ? [height, width] : [width, height];
  const at = (line: number, i: number) => (along === "row" ? data[line * width + i]! : data[i * width + line]!);
  const steps: Point[] = [];
  for (let line = 0; line < lines; line++) {
    const start = dir === 1 ? 0 : length - 1;
    const base = at(line, start);
    for (let k = REACH; k < length - REACH - BEYOND; k++) {
      const i = dir === 1 ? k : length - 1 - k;
      const before = at(line, i - dir * REACH);
      if (at(line, i + dir * REACH) - before < STEP) continue;
      let low = Infinity;
      for (let j = REACH; j <= BEYOND; j++) low = Math.min(low, at(line, i + dir * j));
      // Paper past the step, and a surround darker than it where the scan began (a scan that began on the paper
      // itself found a letter's edge, not the paper's).
      if (low - before >= STEP * 0.6 && low - base >= STEP * 0.6) steps.push([i, line]);
      break;
    }
  }
  return steps;
}

/**
 * A robust line through the steps (position = a·index + b): least squares, then refitted on the steps near it
 * until stable. Null when too few steps support it or it leans too much.
 */
function sideLine(steps: Point[], span: number): Side | null {
  if (steps.length < Math.max(8, span * 0.1)) return null;
  let pts = steps;
  let line = fit(pts);
  for (let round = 0; round < 6 && line; round++) {
    // A median band first (the first fit may be pulled by a table's edge), then the near steps.
    const res = pts.map(([p, i]) => Math.abs(p - (line!.a * i + line!.b)));
    const sorted = [...res].sort((a, b) => a - b);
    const cut = round < 3 ? Math.max(NEAR_LINE, sorted[Math.floor(sorted.length / 2)]! * 2) : NEAR_LINE;
    pts = steps.filter(([p, i]) => Math.abs(p - (line!.a * i + line!.b)) <= cut);
    line = pts.length >= 2 ? fit(pts) : null;
  }
  if (!line || Math.abs(line.a) > MAX_LEAN) return null;
  const indexes = pts.map(([, i]) => i);
  const extent = maxOf(indexes) - minOf(indexes) + 1;
  return pts.length >= SUPPORT * extent && extent >= span * 0.2
    ? { ...line, from: minOf(indexes), to: maxOf(indexes) }
    : null;
}

/** Where a vertical side (x = a·y + b) meets a horizontal one (y = a·x + b). */
function cross(v: SideLine, hz: SideLine): Point | null {
  const d = 1 - v.a * hz.a;
  if (Math.abs(d) < 1e-9) return null;
  const y = (hz.a * v.b + hz.b) / d;
  return [v.a * y + v.b, y];
}

function area(q: Point[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    const [x1, y1] = q[i]!;
    const [x2, y2] = q[(i + 1) % q.length]!;
    s += x1 * y2 - x2 * y1;
  }
  return Math.abs(s) / 2;
}

function convex(q: Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < q.length; i++) {
    const [a, b, c] = [q[i]!, q[(i + 1) % q.length]!, q[(i + 2) % q.length]!];
    const z = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (z === 0) return false;
    if (sign && Math.sign(z) !== sign) return false;
    sign = Math.sign(z);
  }
  return true;
}

/** The paper is brighter than what lies outside it: median log brightness inside exceeds outside by STEP. */
function brighterInside(img: { data: Float32Array; width: number; height: number }, q: Point[]): boolean {
  const inside: number[] = [];
  const outside: number[] = [];
  for (let y = 0; y < img.height; y += 2)
    for (let x = 0; x < img.width; x += 2) (contains(q, x, y) ? inside : outside).push(img.data[y * img.width + x]!);
  // No surround at all (the sheet is the frame) is not a photographed sheet either.
  if (outside.length < 0.03 * (inside.length + outside.length)) return false;
  return median(inside) - median(outside) >= STEP;
}

/** Points sampled along each found side, and the share of them that must be brighter inside than outside. */
const EDGE_SAMPLES = 24;
const EDGE_AGREE = 0.6;

/**
 * The paper is brighter than the surface just beyond each of its found sides (`sides`: top, right, bottom, left),
 * at most points along them. A hard shadow across paper and table darkens both alike, so the two medians of
 * brighterInside may not differ by a step (most of the paper in the shade, a light wood table beside it), while
 * across each edge, point by point, the step is still there.
 */
function brighterAlongEdges(
  img: { data: Float32Array; width: number; height: number },
  q: Point[],
  sides: boolean[],
): boolean {
  const [cx, cy] = [q.reduce((a, p) => a + p[0], 0) / 4, q.reduce((a, p) => a + p[1], 0) / 4];
  const at = (x: number, y: number) => {
    const [u, v] = [Math.round(x), Math.round(y)];
    return u < 0 || v < 0 || u >= img.width || v >= img.height ? null : img.data[v * img.width + u]!;
  };
  let [agree, total] = [0, 0];
  for (let i = 0; i < 4; i++) {
    if (!sides[i]) continue;
    const [a, b] = [q[i]!, q[(i + 1) % 4]!];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    let [nx, ny] = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
    const [mx, my] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    if (nx * (cx - mx) + ny * (cy - my) < 0) [nx, ny] = [-nx, -ny];
    for (let k = 1; k <= EDGE_SAMPLES; k++) {
      const t = 0.1 + (0.8 * (k - 0.5)) / EDGE_SAMPLES;
      const [x, y] = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
      const inside = at(x + nx * 2, y + ny * 2);
      const outside = at(x - nx * (RIM + 3), y - ny * (RIM + 3));
      if (inside === null || outside === null) continue;
      total++;
      if (inside - outside >= STEP * 0.6) agree++;
    }
  }
  return total >= EDGE_SAMPLES && agree >= EDGE_AGREE * total;
}

function contains(q: Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < q.length; i++) {
    const [a, b] = [q[i]!, q[(i + 1) % q.length]!];
    const z = Math.sign((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
    if (z === 0) continue;
    if (sign && z !== sign) return false;
    sign = z;
  }
  return true;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}
