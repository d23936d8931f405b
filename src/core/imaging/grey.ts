import type { Box, RasterImage } from "../model.ts";
import { DocprocError } from "../errors.ts";
import { maxOf, minOf } from "../arrays";

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

export function crop(img: GreyImage, x: number, y: number, width: number, height: number): GreyImage {
  const out = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    const start = (y + r) * img.width + x;
    out.set(img.data.subarray(start, start + width), r * width);
  }
  return { data: out, width, height };
}

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

/** The most common grey level (in bins of 4, sampled): the paper of a scan or photo. */
export function paperTone(img: GreyImage): number {
  const bins = new Uint32Array(64);
  const step = Math.max(1, Math.floor(img.data.length / 250_000));
  for (let i = 0; i < img.data.length; i += step) bins[img.data[i]! >> 2]!++;
  let best = 63;
  for (let b = 0; b < 64; b++) if (bins[b]! > bins[best]!) best = b;
  return Math.min(255, best * 4 + 2);
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
