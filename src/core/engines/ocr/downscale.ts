import { blockSums } from "../../imaging/block-sums.ts";
import type { GreyImage } from "../../imaging/grey.ts";

/**
 * Box-filter downscale by an integer factor (cheap analysis copy): each output pixel is ⌊sum / factor²⌋ of its
 * block, looked up in a table built with that division. The usual factors (2-4: a 300-DPI page is reduced by 3 or
 * 4) add their block's pixels in one expression; others take the block sums of imaging/block-sums.ts.
 */
export function downscale(img: GreyImage, factor: number): GreyImage {
  if (factor <= 1) return img;
  if (img.width < factor || img.height < factor) return downscaleTiny(img, factor);
  const width = Math.floor(img.width / factor);
  const height = Math.floor(img.height / factor);
  const out = new Uint8Array(width * height);
  const mean = blockMeans(factor * factor);
  if (factor <= 4) {
    for (let y = 0; y < height; y++) smallBlocks(img, y * factor * img.width, out, y * width, width, factor, mean);
    return { data: out, width, height };
  }
  const sums = blockSums(img.data, img.width, factor, width, height);
  for (let i = 0; i < out.length; i++) out[i] = mean[sums[i]!]!;
  return { data: out, width, height };
}

/**
 * One output row for factors 2-4: each block summed in one expression over its rows (in the batch CLI's JIT tier,
 * without FTL, a third less time than accumulating column sums in an array).
 */
function smallBlocks(
  img: GreyImage,
  start: number,
  out: Uint8Array,
  row: number,
  width: number,
  factor: number,
  mean: Uint8Array,
): void {
  const src = img.data;
  const stride = img.width;
  let p = start;
  if (factor === 3) {
    for (let x = 0; x < width; x++, p += 3) {
      const q = p + stride;
      const r = q + stride;
      out[row + x] =
        mean[
          src[p]! +
            src[p + 1]! +
            src[p + 2]! +
            src[q]! +
            src[q + 1]! +
            src[q + 2]! +
            src[r]! +
            src[r + 1]! +
            src[r + 2]!
        ]!;
    }
  } else if (factor === 4) {
    for (let x = 0; x < width; x++, p += 4) {
      const q = p + stride;
      const r = q + stride;
      const s = r + stride;
      const top = src[p]! + src[p + 1]! + src[p + 2]! + src[p + 3]! + src[q]! + src[q + 1]! + src[q + 2]! + src[q + 3]!;
      out[row + x] =
        mean[
          top + src[r]! + src[r + 1]! + src[r + 2]! + src[r + 3]! + src[s]! + src[s + 1]! + src[s + 2]! + src[s + 3]!
        ]!;
    }
  } else {
    for (let x = 0; x < width; x++, p += 2)
      out[row + x] = mean[src[p]! + src[p + 1]! + src[p + stride]! + src[p + stride + 1]!]!;
  }
}

/** ⌊sum / area⌋ for every possible block sum, each computed as the float division the pixels used to be. */
function blockMeans(area: number): Uint8Array {
  const mean = new Uint8Array(255 * area + 1);
  for (let sum = 0; sum < mean.length; sum++) mean[sum] = sum / area;
  return mean;
}

/**
 * An image narrower or lower than the factor: one output pixel on that side, its block reaching past the row into
 * the next one (past the end of the data the sum turns NaN and the byte 0), as the downscale has always done.
 */
function downscaleTiny(img: GreyImage, factor: number): GreyImage {
  const width = Math.max(1, Math.floor(img.width / factor));
  const height = Math.max(1, Math.floor(img.height / factor));
  const out = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * img.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += img.data[row + dx]!;
      }
      out[y * width + x] = sum / area;
    }
  }
  return { data: out, width, height };
}
