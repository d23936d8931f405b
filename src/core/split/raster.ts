/**
 * Small raster helpers for the split stage: grey conversion with box downscaling, rotation, and ink measurement.
 * Pure JS over `RasterImage`, so barcode and blank detection work on whatever the conversion stage renders.
 */
import type { RasterImage } from "../model";

export interface GreyImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Converts to 8-bit grey and box-downscales so the longest side is at most `maxSide` (never upscales). */
export function toGrey(img: RasterImage, maxSide: number): GreyImage {
  const factor = Math.max(1, Math.ceil(Math.max(img.width, img.height) / maxSide));
  const width = Math.floor(img.width / factor);
  const height = Math.floor(img.height / factor);
  const out = new Uint8ClampedArray(width * height);
  const ch = img.channels;
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        let idx = ((y * factor + dy) * img.width + x * factor) * ch;
        for (let dx = 0; dx < factor; dx++, idx += ch) sum += luminance(img.data, idx, ch);
      }
      out[y * width + x] = sum / area;
    }
  }
  return { data: out, width, height };
}

function luminance(d: Uint8Array, i: number, ch: number): number {
  if (ch === 1) return d[i];
  // Transparent pixels (alpha 0) are paper, not ink.
  if (ch === 4 && d[i + 3] === 0) return 255;
  return (d[i] * 299 + d[i + 1] * 587 + d[i + 2] * 114) / 1000;
}

/** Rotates a grey image clockwise by 90, 180 or 270 degrees. */
export function rotateGrey(img: GreyImage, degrees: 90 | 180 | 270): GreyImage {
  const { width: w, height: h, data } = img;
  const swap = degrees !== 180;
  const out = new Uint8ClampedArray(w * h);
  const ow = swap ? h : w;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      if (degrees === 90) [nx, ny] = [h - 1 - y, x];
      else if (degrees === 180) [nx, ny] = [w - 1 - x, h - 1 - y];
      else [nx, ny] = [y, w - 1 - x];
      out[ny * ow + nx] = data[y * w + x];
    }
  }
  return { data: out, width: ow, height: swap ? w : h };
}

/**
 * Share of dark pixels (grey < 128), ignoring a 3% margin on each side where scanner edges and punch holes live.
 */
export function inkRatio(img: GreyImage): number {
  const mx = Math.floor(img.width * 0.03);
  const my = Math.floor(img.height * 0.03);
  let dark = 0;
  let total = 0;
  for (let y = my; y < img.height - my; y++) {
    for (let x = mx; x < img.width - mx; x++) {
      total++;
      if (img.data[y * img.width + x] < 128) dark++;
    }
  }
  return total === 0 ? 0 : dark / total;
}
