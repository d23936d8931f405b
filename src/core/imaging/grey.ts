/**
 * The one grey image of core: 8-bit, one channel, row-major. OCR hands it to tesseract (converted once, then cropped,
 * upscaled, smoothed); separator detection reads bars, codes and ink from small copies of it (grey-thumbnail.ts);
 * the upright view of a turned or skewed page is in upright.ts.
 */
import type { RasterImage } from "../model.ts";
import { DocprocError } from "../errors.ts";

/** An 8-bit single-channel image: what tesseract works on, so we convert once and pass this around. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Converts a raster to 8-bit grey (ITU-R BT.601 luma; alpha composited on white). Grey input is returned as is. */
export function toGrey(img: RasterImage): GreyImage {
  const { width, height, channels, data } = img;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new DocprocError("ocr_failed", `invalid raster size ${width}x${height}`, { stage: "ocr" });
  }
  if (data.length < width * height * channels) {
    throw new DocprocError("ocr_failed", `raster buffer too short for ${width}x${height}x${channels}`, {
      stage: "ocr",
    });
  }
  if (channels === 1) return { data, width, height };
  if (channels === 3) return { data: rgbToGrey(data, width * height), width, height };
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    const luma = (data[p] * 299 + data[p + 1] * 587 + data[p + 2] * 114) / 1000;
    if (channels === 4) {
      const a = data[p + 3];
      out[i] = (luma * a + 255 * (255 - a)) / 255;
    } else out[i] = luma;
  }
  return { data: out, width, height };
}

/**
 * The luma of RGB pixels, ⌊(299·r + 587·g + 114·b) / 1000⌋, in integer arithmetic: the sum (at most 255,000) divided
 * by 8, then by 125 as a multiplication and shift that stays within 31 bits. It gives the byte the float division
 * gave for every possible sum (checked over all of 0..255,000 and all 256³ colours).
 */
function luma(sum: number): number {
  return ((sum >> 3) * 33555) >> 22;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * RGB to grey, four pixels (three 32-bit words in, one out) at a time where the buffer allows 32-bit reads: in
 * the batch CLI's JIT tier (no FTL, see cli/jit.ts) that is ~20% less time than byte by byte (14 vs 18 ms per
 * 300-DPI A4 page), and ~40% less than the float loop before it.
 */
function rgbToGrey(data: Uint8Array, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels);
  let i = 0;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) {
    const quads = pixels >> 2;
    const words = new Uint32Array(data.buffer, data.byteOffset, quads * 3);
    const packed = new Uint32Array(out.buffer, 0, quads);
    for (let q = 0, k = 0; q < quads; q++, k += 3) {
      // Bytes r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3, lowest byte first.
      const a = words[k]!;
      const b = words[k + 1]!;
      const c = words[k + 2]!;
      packed[q] =
        luma((a & 255) * 299 + ((a >>> 8) & 255) * 587 + ((a >>> 16) & 255) * 114) |
        (luma((a >>> 24) * 299 + (b & 255) * 587 + ((b >>> 8) & 255) * 114) << 8) |
        (luma(((b >>> 16) & 255) * 299 + (b >>> 24) * 587 + (c & 255) * 114) << 16) |
        (luma(((c >>> 8) & 255) * 299 + ((c >>> 16) & 255) * 587 + (c >>> 24) * 114) << 24);
    }
    i = quads * 4;
  }
  for (let p = i * 3; i < pixels; i++, p += 3) out[i] = luma(data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114);
  return out;
}

/**
 * Binary PGM (P5): Leptonica reads it without any decompression, which is the cheapest input tesseract accepts
 * (measured against PNG: ~15% less time per 300-DPI page in tesseract.js).
 */
export function encodePgm(img: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(header.length + img.width * img.height);
  out.set(header, 0);
  out.set(img.data.subarray(0, img.width * img.height), header.length);
  return out;
}

/**
 * Bilinear enlargement by `factor` (> 1): small text (a 96-DPI screenshot, a low-resolution fax) read by tesseract
 * at two to three times its size loses far fewer characters. Output pixel centres map back to input coordinates.
 */
export function upscale(img: GreyImage, factor: number): GreyImage {
  const width = Math.max(1, Math.round(img.width * factor));
  const height = Math.max(1, Math.round(img.height * factor));
  const out = new Uint8Array(width * height);
  const sx = img.width / width;
  const sy = img.height / height;
  const src = img.data;
  const maxX = img.width - 1;
  const maxY = img.height - 1;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(maxY, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(maxY, y0 + 1);
    const wy = fy - y0;
    const r0 = y0 * img.width;
    const r1 = y1 * img.width;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(maxX, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(maxX, x0 + 1);
      const wx = fx - x0;
      const top = src[r0 + x0]! + (src[r0 + x1]! - src[r0 + x0]!) * wx;
      const bottom = src[r1 + x0]! + (src[r1 + x1]! - src[r1 + x0]!) * wx;
      out[y * width + x] = top + (bottom - top) * wy + 0.5;
    }
  }
  return { data: out, width, height };
}

/** The `width` × `height` window at (`x`, `y`); fractional values (boxes of an enlarged layout) are rounded down. */
export function crop(img: GreyImage, x0: number, y0: number, w: number, h: number): GreyImage {
  const [x, y, width, height] = [Math.floor(x0), Math.floor(y0), Math.floor(w), Math.floor(h)];
  const out = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    const start = (y + r) * img.width + x;
    out.set(img.data.subarray(start, start + width), r * width);
  }
  return { data: out, width, height };
}

/** The most common grey level (in bins of 4, sampled): the paper of a scan or photo. */
export function paperTone(img: GreyImage): number {
  const bins = new Uint32Array(64);
  const step = Math.max(1, Math.floor(img.data.length / 250_000));
  for (let i = 0; i < img.data.length; i += step) bins[img.data[i]! >> 2]!++;
  let best = 63;
  for (let b = 0; b < 64; b++) if (bins[b]! > bins[best]!) best = b;
  return Math.min(255, best * 4 + 2);
}

/**
 * Mean over a (2r+1)² square (running sums, O(pixels)). Dot-matrix and worn thermal print break strokes into dots
 * with paper between them, which tesseract's binarisation keeps apart (letters become specks); averaged over about
 * the dot pitch, the dots merge into the grey strokes a person sees, and thresholding then keeps them whole.
 * Measured against a grey closing (min then max filter) on dot-matrix receipts: the closing thickened strokes into
 * each other and broke the table columns, the mean read the same receipts far better.
 */
export function smooth(img: GreyImage, radius: number): GreyImage {
  const r = Math.floor(radius);
  if (r < 1) return img;
  const { width: w, height: h } = img;
  const tmp = new Uint16Array(w * h);
  const out = new Uint8Array(w * h);
  // Horizontal sums (edge pixels repeated), then vertical sums of those, divided once.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += img.data[row + Math.min(w - 1, Math.max(0, k))]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = sum;
      sum += img.data[row + Math.min(w - 1, x + r + 1)]! - img.data[row + Math.max(0, x - r)]!;
    }
  }
  const area = (2 * r + 1) * (2 * r + 1);
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += tmp[Math.min(h - 1, Math.max(0, k)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = Math.round(sum / area);
      sum += tmp[Math.min(h - 1, y + r + 1) * w + x]! - tmp[Math.max(0, y - r) * w + x]!;
    }
  }
  return { data: out, width: w, height: h };
}
