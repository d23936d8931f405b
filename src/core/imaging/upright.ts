/**
 * The upright view of a page: a quarter turn and a small skew as one transform, the image rendered that way, and
 * points and boxes mapped back to the page as it was scanned (OCR reads upright, results stay in source space).
 */
import type { Box } from "../model.ts";
import { maxOf, minOf } from "../arrays";
import { paperTone, type GreyImage } from "./grey.ts";

/**
 * Turning an image upright: rotate clockwise by `rotation` (0/90/180/270), then counter-clockwise by `skew`
 * degrees (the measured clockwise skew of its text lines). A point d of the output maps back to the input by
 * one rotation about the centres: u - cU = R(skew - rotation) · (d - cD), with R(θ) the clockwise rotation.
 */
export interface UprightTransform {
  rotation: number;
  skew: number;
  srcWidth: number;
  srcHeight: number;
  width: number;
  height: number;
}

export function uprightTransform(
  srcWidth: number,
  srcHeight: number,
  rotation: number,
  skew: number,
): UprightTransform {
  const a = ((rotation - skew) * Math.PI) / 180;
  const c = Math.abs(Math.cos(a));
  const s = Math.abs(Math.sin(a));
  // Round away float noise so 90° turns give exactly swapped sizes.
  const size = (v: number) => Math.max(1, Math.ceil(Math.round(v * 1e6) / 1e6));
  return {
    rotation,
    skew,
    srcWidth,
    srcHeight,
    width: size(srcWidth * c + srcHeight * s),
    height: size(srcWidth * s + srcHeight * c),
  };
}

/** Maps a point of the upright image back to the source image. */
export function toSource(t: UprightTransform, x: number, y: number): [number, number] {
  const a = ((t.skew - t.rotation) * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const dx = x - t.width / 2;
  const dy = y - t.height / 2;
  return [dx * cos - dy * sin + t.srcWidth / 2, dx * sin + dy * cos + t.srcHeight / 2];
}

/** Maps a box of the upright image back to the source: the axis-aligned hull of its four corners, clamped. */
export function boxToSource(t: UprightTransform, box: Box): Box {
  const corners = [
    toSource(t, box[0], box[1]),
    toSource(t, box[2], box[1]),
    toSource(t, box[0], box[3]),
    toSource(t, box[2], box[3]),
  ];
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const clampX = (v: number) => Math.min(t.srcWidth, Math.max(0, Math.round(v)));
  const clampY = (v: number) => Math.min(t.srcHeight, Math.max(0, Math.round(v)));
  return [clampX(minOf(xs)), clampY(minOf(ys)), clampX(maxOf(xs)), clampY(maxOf(ys))];
}

/**
 * Renders the upright image: pure quarter turns copy pixels exactly, a skew is resampled bilinearly. The corners the
 * turn uncovers take the image's most common tone (its paper): white wedges on a tinted roll or a grey scan are
 * edges tesseract's layout analysis takes for column borders (a narrow receipt lost its amounts column to them).
 */
export function renderUpright(img: GreyImage, t: UprightTransform): GreyImage {
  return t.skew === 0 ? quarterTurn(img, t) : resample(img, t, paperTone(img));
}

function quarterTurn(img: GreyImage, t: UprightTransform): GreyImage {
  const { width: w, height: h, data } = img;
  const r = ((t.rotation % 360) + 360) % 360;
  if (r === 0) return img;
  const out = new Uint8Array(w * h);
  const ow = t.width;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      // Clockwise 90: (x, y) -> (h-1-y, x); 180: (w-1-x, h-1-y); 270: (y, w-1-x).
      const idx = r === 90 ? x * ow + (h - 1 - y) : r === 180 ? (h - 1 - y) * ow + (w - 1 - x) : (w - 1 - x) * ow + y;
      out[idx] = data[row + x];
    }
  }
  return { data: out, width: t.width, height: t.height };
}

function resample(img: GreyImage, t: UprightTransform, fill: number): GreyImage {
  const out = new Uint8Array(t.width * t.height);
  const a = ((t.skew - t.rotation) * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const { width: w, height: h, data } = img;
  const at = (xx: number, yy: number) => (xx < 0 || yy < 0 || xx >= w || yy >= h ? fill : data[yy * w + xx]);
  for (let y = 0; y < t.height; y++) {
    // Source position of the output pixel centre, stepping by (cos, sin) per output column.
    const dy = y + 0.5 - t.height / 2;
    let sx = (0.5 - t.width / 2) * cos - dy * sin + w / 2 - 0.5;
    let sy = (0.5 - t.width / 2) * sin + dy * cos + h / 2 - 0.5;
    const row = y * t.width;
    for (let x = 0; x < t.width; x++, sx += cos, sy += sin) {
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      let p00: number, p10: number, p01: number, p11: number;
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h) {
        const i = y0 * w + x0;
        p00 = data[i];
        p10 = data[i + 1];
        p01 = data[i + w];
        p11 = data[i + w + 1];
      } else if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) {
        out[row + x] = fill;
        continue;
      } else {
        p00 = at(x0, y0);
        p10 = at(x0 + 1, y0);
        p01 = at(x0, y0 + 1);
        p11 = at(x0 + 1, y0 + 1);
      }
      const top = p00 + (p10 - p00) * fx;
      const bottom = p01 + (p11 - p01) * fx;
      out[row + x] = top + (bottom - top) * fy + 0.5;
    }
  }
  return { data: out, width: t.width, height: t.height };
}
