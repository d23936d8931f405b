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

/** Cells of the paper-tone grid are about this share of the sheet's shorter side. */
const CELL_SHARE = 1 / 24;
/** A cell's paper tone is this percentile of its pixels: text is sparse, paper is most of a cell. */
const TONE_PERCENTILE = 0.9;
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

/** Every pixel divided by the paper tone around it (a grid of cell tones, interpolated), scaled to white = 255. */
function evenLight(img: GreyImage): GreyImage {
  const { width, height, data } = img;
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
      tones[gy * gw + gx] = percentile(counts, n, TONE_PERCENTILE);
    }
  const sheetTone = [...tones].sort((a, b) => a - b)[Math.floor(tones.length * 0.75)]!;
  // A cell all text or logo reads darker than its paper: its neighbours' brightest tone stands in for it.
  const grid = new Float32Array(tones.length);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      let best = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [x, y] = [gx + dx, gy + dy];
          if (x >= 0 && y >= 0 && x < gw && y < gh) best = Math.max(best, tones[y * gw + x]!);
        }
      grid[gy * gw + gx] = Math.max(best, sheetTone * MIN_TONE_SHARE, 1);
    }
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(gh - 1, y0 + 1);
    for (let x = 0; x < width; x++) {
      const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const top = grid[y0 * gw + x0]! + (grid[y0 * gw + x1]! - grid[y0 * gw + x0]!) * (fx - x0);
      const bottom = grid[y1 * gw + x0]! + (grid[y1 * gw + x1]! - grid[y1 * gw + x0]!) * (fx - x0);
      const tone = top + (bottom - top) * (fy - y0);
      out[y * width + x] = Math.min(255, Math.round((data[y * width + x]! * 255) / tone));
    }
  }
  return { data: out, width, height };
}

function percentile(counts: Uint32Array, n: number, p: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += counts[v]!;
    if (seen >= n * p) return v;
  }
  return 255;
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
