/**
 * greyThumbnail of separator detection (src/core/imaging/grey-thumbnail.ts): a one-channel raster is summed a block row at a time
 * (imaging/block-sums.ts); each output pixel MUST be its block's mean as the per-pixel loop computes it (a
 * Uint8ClampedArray store: rounded half to even), whatever the factor.
 */
import { expect, test } from "bun:test";
import { greyThumbnail } from "../../../src/core/imaging/grey-thumbnail";

test("a grey raster's box downscale is each block's mean, rounded as a clamped byte store rounds", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const [w, h, maxSide] of [
    [53, 41, 20],
    [200, 90, 40],
    [37, 300, 50],
    [64, 64, 64],
  ] as const) {
    const data = Uint8Array.from({ length: w * h }, () => Math.floor(random() * 256));
    const grey = greyThumbnail({ data, width: w, height: h, channels: 1 }, maxSide);
    const factor = Math.max(1, Math.ceil(Math.max(w, h) / maxSide));
    expect([grey.width, grey.height]).toEqual([Math.floor(w / factor), Math.floor(h / factor)]);
    const expected = new Uint8ClampedArray(grey.width * grey.height);
    for (let y = 0; y < grey.height; y++) {
      for (let x = 0; x < grey.width; x++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++)
          for (let dx = 0; dx < factor; dx++) sum += data[(y * factor + dy) * w + x * factor + dx]!;
        expected[y * grey.width + x] = sum / (factor * factor);
      }
    }
    expect(Array.from(grey.data)).toEqual(Array.from(expected));
  }
});
