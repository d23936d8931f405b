/**
 * The photographed sheet (sheet.ts) squared up: the paper's quadrilateral mapped onto an upright rectangle of about
 * its own size in pixels (one homography undoes the turn and the perspective at once), its uneven light evened out
 * (each region divided by its own paper tone), and boxes read on it mapped back to the photo.
 */
import type { Box } from "../model.ts";
import type { GreyImage } from "./grey.ts";
import { maxOf, minOf } from "../arrays";
import type { Point, Sheet } from "./sheet.ts";

export interface SquaredSheet {
  image: GreyImage;
  /** A box of `image` as the axis-aligned hull of its corners in the photo, clamped to the photo. */
  toSource(box: Box): Box;
}

/** The paper tone is measured over about this share of the sheet's shorter side (wider than any stroke). */
const REACH_SHARE = 1 / 100;
/** At most this many pixels: wider than a bold stroke of text a phone photo can still read. */
const MAX_REACH = 8;
/** Tones are never taken below this share of the sheet's own paper tone: a dark printed band stays dark. */
const MIN_TONE_SHARE = 0.5;

export function squareUp(img: GreyImage, sheet: Sheet): SquaredSheet {
  const [tl, tr, br, bl] = sheet.corners;
  const width = Math.max(1, Math.round(Math.max(dist(tl, tr), dist(bl, br))));
  const height = Math.max(1, Math.round(Math.max(dist(tl, bl), dist(tr, br))));
  const h = homography(
    [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ],
    sheet.corners,
  );
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [u, v] = apply(h, x + 0.5, y + 0.5);
      data[y * width + x] = bilinear(img, u - 0.5, v - 0.5);
    }
  const image = evenLight({ data, width, height });
  const toSource = (b: Box): Box => {
    const pts = [apply(h, b[0], b[1]), apply(h, b[2], b[1]), apply(h, b[2], b[3]), apply(h, b[0], b[3])];
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const cx = (v: number) => Math.min(img.width, Math.max(0, Math.round(v)));
    const cy = (v: number) => Math.min(img.height, Math.max(0, Math.round(v)));
    return [cx(minOf(xs)), cy(minOf(ys)), cx(maxOf(xs)), cy(maxOf(ys))];
  };
  return { image, toSource };
}

/**
 * Every pixel divided by the paper tone around it, scaled to white = 255. Two estimates of the tone: a grid of cell
 * tones (a high percentile per cell, interpolated: smooth light falling off), and the image's closing (the brightest
 * value within a few pixels, then the darkest of those: strokes vanish, the sharp edge of a shadow band stays where
 * it crosses a line of text). The darker of the two is the tone: the closing where a shadow falls, the grid elsewhere.
 */
function evenLight(img: GreyImage): GreyImage {
  const { width, height, data } = img;
  const r = Math.max(3, Math.min(MAX_REACH, Math.round(Math.min(width, height) * REACH_SHARE)));
  const closed = boxBlur(
    extreme(extreme(data, width, height, r, Math.max), width, height, r, Math.min),
    width,
    height,
    r,
  );
  const grid = cellTones(img);
  const sorted = Uint8Array.from(closed).sort();
  const floor = Math.max(1, sorted[Math.floor(sorted.length * 0.75)]! * MIN_TONE_SHARE);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const tone = Math.max(floor, Math.min(grid[i]!, closed[i]!));
    out[i] = Math.min(255, Math.round((data[i]! * 255) / tone));
  }
  return { data: out, width, height };
}

/** Cells of the tone grid are about this share of the sheet's shorter side. */
const CELL_SHARE = 1 / 24;
/** A cell's paper tone is this percentile of its pixels: text is sparse, paper is most of a cell. */
const TONE_PERCENTILE = 0.9;

/** Per pixel, the tone of the grid of cells (a cell all text takes its neighbours' brightest), interpolated. */
function cellTones({ width, height, data }: GreyImage): Float32Array {
  const cell = Math.max(8, Math.round(Math.min(width, height) * CELL_SHARE));
  const [gw, gh] = [Math.ceil(width / cell), Math.ceil(height / cell)];
  const tones = new Float32Array(gw * gh);
  const counts = new Uint32Array(256);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      counts.fill(0);
      let n = 0;
      for (let y = gy * cell; y < Math.min(height, (gy + 1) * cell); y++)
        for (let x = gx * cell; x < Math.min(width, (gx + 1) * cell); x++, n++) counts[data[y * width + x]!]!++;
      let seen = 0;
      let v = 0;
      while (v < 255 && (seen += counts[v]!) < n * TONE_PERCENTILE) v++;
      tones[gy * gw + gx] = v;
    }
  const grid = new Float32Array(tones.length);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      let best = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [x, y] = [gx + dx, gy + dy];
          if (x >= 0 && y >= 0 && x < gw && y < gh) best = Math.max(best, tones[y * gw + x]!);
        }
      grid[gy * gw + gx] = best;
    }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const [y0, ty] = [Math.floor(fy), fy - Math.floor(fy)];
    const y1 = Math.min(gh - 1, y0 + 1);
    for (let x = 0; x < width; x++) {
      const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
      const [x0, tx] = [Math.floor(fx), fx - Math.floor(fx)];
      const x1 = Math.min(gw - 1, x0 + 1);
      const top = grid[y0 * gw + x0]! + (grid[y0 * gw + x1]! - grid[y0 * gw + x0]!) * tx;
      const bottom = grid[y1 * gw + x0]! + (grid[y1 * gw + x1]! - grid[y1 * gw + x0]!) * tx;
      out[y * width + x] = top + (bottom - top) * ty;
    }
  }
  return out;
}

/** Max (or min) over a (2r+1)² square, as a row pass then a column pass. */
function extreme(src: Uint8Array, w: number, h: number, r: number, pick: (a: number, b: number) => number) {
  const rows = new Uint8Array(src.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = src[y * w + x]!;
      for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) v = pick(v, src[y * w + k]!);
      rows[y * w + x] = v;
    }
  const out = new Uint8Array(src.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = rows[y * w + x]!;
      for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) v = pick(v, rows[k * w + x]!);
      out[y * w + x] = v;
    }
  return out;
}

/** Mean over a (2r+1)² square (running sums per row, then per column). */
function boxBlur(src: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const rows = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += src[y * w + Math.min(w - 1, Math.max(0, x))]!;
    for (let x = 0; x < w; x++) {
      rows[y * w + x] = sum / (2 * r + 1);
      sum += src[y * w + Math.min(w - 1, x + r + 1)]! - src[y * w + Math.max(0, x - r)]!;
    }
  }
  const out = new Uint8Array(src.length);
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += rows[Math.min(h - 1, Math.max(0, y)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = Math.round(sum / (2 * r + 1));
      sum += rows[Math.min(h - 1, y + r + 1) * w + x]! - rows[Math.max(0, y - r) * w + x]!;
    }
  }
  return out;
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

function apply(h: number[], x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + 1;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

function bilinear(img: GreyImage, u: number, v: number): number {
  const x0 = Math.max(0, Math.min(img.width - 2, Math.floor(u)));
  const y0 = Math.max(0, Math.min(img.height - 2, Math.floor(v)));
  const fx = Math.max(0, Math.min(1, u - x0));
  const fy = Math.max(0, Math.min(1, v - y0));
  const i = y0 * img.width + x0;
  const d = img.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * fx;
  const bottom = d[i + img.width]! + (d[i + img.width + 1]! - d[i + img.width]!) * fx;
  return Math.round(top + (bottom - top) * fy);
}

/** The 8 coefficients of the homography taking `from[i]` to `to[i]` (four point pairs), by Gaussian elimination. */
export function homography(from: Point[], to: Point[]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let best = c;
    for (let k = c + 1; k < 8; k++) if (Math.abs(a[k]![c]!) > Math.abs(a[best]![c]!)) best = k;
    [a[c], a[best]] = [a[best]!, a[c]!];
    for (let k = 0; k < 8; k++) {
      if (k === c) continue;
      const f = a[k]![c]! / a[c]![c]!;
      for (let j = c; j < 9; j++) a[k]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => row[8]! / row[i]!);
}
