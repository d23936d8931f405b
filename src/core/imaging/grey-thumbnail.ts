/**
 * Small grey copies of a page for separator detection (the split stage): grey conversion with box downscaling,
 * halving, rotation, and ink measurement. Pure JS over `RasterImage`, so barcode and blank detection work on whatever
 * the conversion stage renders. Pixels are computed into a Uint8ClampedArray (averages round, never wrap) and handed
 * out as a Uint8Array view of the same bytes.
 */
import { blockSums } from "./block-sums";
import type { GreyImage } from "./grey";
import type { RasterImage } from "../model";

const bytesOf = (out: Uint8ClampedArray) => new Uint8Array(out.buffer, out.byteOffset, out.length);

/** Converts to 8-bit grey and box-downscales so the longest side is at most `maxSide` (never upscales). */
export function greyThumbnail(img: RasterImage, maxSide: number): GreyImage {
  const factor = Math.max(1, Math.ceil(Math.max(img.width, img.height) / maxSide));
  const width = Math.max(1, Math.floor(img.width / factor));
  const height = Math.max(1, Math.floor(img.height / factor));
  // A one-channel raster (the OCR raster of a scanned page) is summed a block row at a time: the same integers as
  // the per-pixel loop, without dividing each pixel's x by the factor (22-29 ms a page before, ~5 after).
  const sums =
    img.channels === 1 ? blockSums(img.data, img.width, factor, width, height) : colourSums(img, factor, width, height);
  const out = new Uint8ClampedArray(width * height);
  const area = factor * factor;
  for (let i = 0; i < out.length; i++) out[i] = sums[i] / area;
  return { data: bytesOf(out), width, height };
}

/** The lumas of a colour image's factor × factor blocks added up: one pass over the source rows. */
function colourSums(img: RasterImage, factor: number, width: number, height: number): Float64Array {
  const sums = new Float64Array(width * height);
  const ch = img.channels;
  const d = img.data;
  for (let sy = 0; sy < height * factor; sy++) {
    const rowBase = Math.floor(sy / factor) * width;
    let idx = sy * img.width * ch;
    for (let sx = 0; sx < width * factor; sx++, idx += ch) {
      let v: number;
      if (ch === 4 && d[idx + 3] === 0)
        v = 255; // transparent is paper, not ink
      else v = (d[idx] * 299 + d[idx + 1] * 587 + d[idx + 2] * 114) / 1000;
      sums[rowBase + ((sx / factor) | 0)] += v;
    }
  }
  return sums;
}

/** Halves a grey image (2×2 box) when its longest side exceeds `maxSide`, repeatedly. */
export function shrinkGrey(img: GreyImage, maxSide: number): GreyImage {
  let cur = img;
  while (Math.max(cur.width, cur.height) > maxSide && cur.width >= 2 && cur.height >= 2) {
    const w = cur.width >> 1;
    const h = cur.height >> 1;
    const out = new Uint8ClampedArray(w * h);
    for (let y = 0; y < h; y++) {
      const r0 = 2 * y * cur.width;
      const r1 = r0 + cur.width;
      for (let x = 0; x < w; x++) {
        out[y * w + x] =
          (cur.data[r0 + 2 * x] + cur.data[r0 + 2 * x + 1] + cur.data[r1 + 2 * x] + cur.data[r1 + 2 * x + 1]) / 4;
      }
    }
    cur = { data: bytesOf(out), width: w, height: h };
  }
  return cur;
}

/**
 * Rotates a grey image clockwise by 90, 180 or 270 degrees. Plain index arithmetic per case: a destructured pair per
 * pixel made this a fifth of the CPU of barcode detection.
 */
export function rotateGrey(img: GreyImage, degrees: 90 | 180 | 270): GreyImage {
  const { width: w, height: h, data } = img;
  const out = new Uint8ClampedArray(w * h);
  if (degrees === 180) {
    for (let i = 0, j = w * h - 1; j >= 0; i++, j--) out[i] = data[j]!;
    return { data: bytesOf(out), width: w, height: h };
  }
  // Output is h wide and w tall. 90°: (x, y) → (h-1-y, x); 270°: (x, y) → (y, w-1-x).
  for (let y = 0; y < h; y++) {
    const row = y * w;
    if (degrees === 90) {
      const nx = h - 1 - y;
      for (let x = 0; x < w; x++) out[x * h + nx] = data[row + x]!;
    } else {
      for (let x = 0; x < w; x++) out[(w - 1 - x) * h + y] = data[row + x]!;
    }
  }
  return { data: bytesOf(out), width: h, height: w };
}

/**
 * Share of ink pixels: dark (grey < 128) pixels with at least two dark neighbours, so isolated specks of dust and
 * scanner noise do not count while strokes of text do. A 3% margin on each side is ignored: scanner edges and
 * punch holes live there.
 */
export function inkRatio(img: GreyImage): number {
  const { width: w, height: h, data } = img;
  const mx = Math.max(1, Math.floor(w * 0.03));
  const my = Math.max(1, Math.floor(h * 0.03));
  let ink = 0;
  let total = 0;
  for (let y = my; y < h - my; y++) {
    for (let x = mx; x < w - mx; x++) {
      total++;
      const i = y * w + x;
      if (data[i] >= 128) continue;
      let neighbours = 0;
      for (const j of [i - w - 1, i - w, i - w + 1, i - 1, i + 1, i + w - 1, i + w, i + w + 1])
        if (data[j] < 128) neighbours++;
      if (neighbours >= 2) ink++;
    }
  }
  return total === 0 ? 0 : ink / total;
}
