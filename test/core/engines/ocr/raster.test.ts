import { describe, expect, test } from "bun:test";
import { otsuThreshold } from "../../../../src/core/engines/ocr/layout.ts";
import { downscale } from "../../../../src/core/engines/ocr/downscale.ts";
import { toGrey, type GreyImage } from "../../../../src/core/imaging/grey.ts";

function randomImage(width: number, height: number, seed: number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = (seed = (seed * 1103515245 + 12345) % 2147483648) >> 23;
  return { data, width, height };
}

describe("grey conversion", () => {
  test("every RGB colour becomes its BT.601 luma rounded down, ⌊(299·r + 587·g + 114·b) / 1000⌋", () => {
    // All 256³ colours, one image of 4,096 × 4,096 pixels.
    const rgb = new Uint8Array(256 * 256 * 256 * 3);
    for (let c = 0, p = 0; c < 256 * 256 * 256; c++, p += 3) {
      rgb[p] = c >> 16;
      rgb[p + 1] = (c >> 8) & 255;
      rgb[p + 2] = c & 255;
    }
    const grey = toGrey({ data: rgb, width: 4096, height: 4096, channels: 3 });
    let wrong = 0;
    for (let c = 0; c < 256 * 256 * 256; c++) {
      const expected = Math.floor(((c >> 16) * 299 + ((c >> 8) & 255) * 587 + (c & 255) * 114) / 1000);
      if (grey.data[c] !== expected) wrong++;
    }
    expect(wrong).toBe(0);
  });

  test("any width and any buffer offset give the same luma: pixels after the last group of four, unaligned views", () => {
    const bytes = new Uint8Array(3 * 7 * 3 + 1);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 97 + 13) & 255;
    for (const offset of [0, 1]) {
      const data = bytes.subarray(offset, offset + 3 * 7 * 3);
      const grey = toGrey({ data, width: 7, height: 3, channels: 3 });
      const expected = Array.from({ length: 21 }, (_, i) =>
        Math.floor((data[3 * i]! * 299 + data[3 * i + 1]! * 587 + data[3 * i + 2]! * 114) / 1000),
      );
      expect([...grey.data]).toEqual(expected);
    }
  });

  test("alpha is composited on white; grey input is returned as it is", () => {
    const rgba = toGrey({
      data: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 255, 100, 100, 100, 255]),
      width: 3,
      height: 1,
      channels: 4,
    });
    expect([...rgba.data]).toEqual([255, 0, 100]);
    const grey = Uint8Array.from([1, 2, 3]);
    expect(toGrey({ data: grey, width: 3, height: 1, channels: 1 }).data).toBe(grey);
  });
});

describe("downscale", () => {
  test("each output pixel is its block's mean rounded down, the last partial blocks dropped", () => {
    for (const factor of [2, 3, 4, 5]) {
      const img = randomImage(53, 41, factor);
      const small = downscale(img, factor);
      expect([small.width, small.height]).toEqual([Math.floor(53 / factor), Math.floor(41 / factor)]);
      let wrong = 0;
      for (let y = 0; y < small.height; y++) {
        for (let x = 0; x < small.width; x++) {
          let sum = 0;
          for (let dy = 0; dy < factor; dy++)
            for (let dx = 0; dx < factor; dx++) sum += img.data[(y * factor + dy) * img.width + x * factor + dx]!;
          if (small.data[y * small.width + x] !== Math.floor(sum / (factor * factor))) wrong++;
        }
      }
      expect(wrong).toBe(0);
    }
  });

  test("an image narrower than the factor keeps one column", () => {
    const img: GreyImage = { data: new Uint8Array(2 * 12).fill(90), width: 2, height: 12 };
    const small = downscale(img, 3);
    expect([small.width, small.height]).toEqual([1, 4]);
  });
});

describe("Otsu threshold", () => {
  test("depends on the pixels' values, not on their order: the same threshold read forwards and backwards", () => {
    for (const n of [1000, 1001, 1002, 1003]) {
      // Paper, and three pixels of print at the very end: counted or not, they make the threshold.
      const data = new Uint8Array(n).fill(230);
      data.fill(5, n - 3);
      const reversed = Uint8Array.from(data).reverse();
      const t = otsuThreshold({ data, width: n, height: 1 });
      expect(otsuThreshold({ data: reversed, width: n, height: 1 })).toBe(t);
      expect(t).toBeGreaterThanOrEqual(5);
      expect(t).toBeLessThan(230);
    }
  });
});
