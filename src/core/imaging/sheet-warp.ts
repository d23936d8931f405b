/**
 * The photographed sheet (sheet.ts) squared up: the paper's quadrilateral mapped onto an upright rectangle of about
 * its own size in pixels (one homography undoes the turn and the perspective at once), its uneven light evened out
 * (each region divided by its own paper tone), and boxes read on it mapped back to the photo.
 */
import type { Box } from "../model.ts";
import type { GreyImage } from "./grey.ts";
import { maxOf, minOf } from "../arrays";
import type { Point, Sheet } from "./sheet.ts";
import { evenLight } from "./even-light.ts";

export interface SquaredSheet {
  image: GreyImage;
  /** A box of `image` as the axis-aligned hull of its corners in the photo, clamped to the photo. */
  toSource(box: Box): Box;
}

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
