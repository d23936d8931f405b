/**
 * `unevenlyLit`'s shortcut for evenly lit pages (imaging/even-light.ts `surelyEven`) gives the full test's answer:
 * checked against the test written out in full, over pages lit evenly and pages under shadows of every depth and size.
 */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { unevenlyLit } from "../../../src/core/imaging/even-light.ts";
import { toGrey, type GreyImage } from "../../../src/core/imaging/grey.ts";
import { loadRaster, TESSERACT_TEST } from "../engines/ocr/helpers.ts";

/** The test as written before the shortcut: every cell's 90th-percentile tone, lower quartile vs 60% of the 90th. */
function fullTest({ width, height, data }: GreyImage): boolean {
  const cell = Math.max(8, Math.floor(Math.min(width, height) / 16));
  const tones: number[] = [];
  for (let y0 = 0; y0 + cell <= height; y0 += cell)
    for (let x0 = 0; x0 + cell <= width; x0 += cell) {
      const counts = new Uint32Array(256);
      for (let y = y0; y < y0 + cell; y++) for (let x = x0; x < x0 + cell; x++) counts[data[y * width + x]!]!++;
      let [seen, v] = [0, 0];
      while (v < 255 && (seen += counts[v]!) < cell * cell * 0.9) v++;
      tones.push(v);
    }
  if (tones.length < 4) return false;
  tones.sort((a, b) => a - b);
  return tones[Math.floor(tones.length * 0.25)]! < 0.6 * tones[Math.floor(tones.length * 0.9)]!;
}

/** Paper of `paper` with text bars, a shadow over the left `share` of it multiplying the light by `depth`. */
function shaded(paper: number, share: number, depth: number, width = 320, height = 440): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const ink = y % 24 < 8 && x % 13 < 9 && x > 20 && x < width - 20;
      const light = x < share * width ? depth : 1;
      data[y * width + x] = Math.round((ink ? 50 : paper) * light);
    }
  return { data, width, height };
}

describe("unevenlyLit with its shortcut", () => {
  test("answers as the full test on even pages and under shadows of every depth and size", () => {
    const answers: boolean[] = [];
    for (const paper of [255, 230, 200, 170])
      for (const share of [0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.8])
        for (const depth of [1, 0.9, 0.75, 0.6, 0.5, 0.3]) {
          const img = shaded(paper, share, depth);
          const want = fullTest(img);
          expect(unevenlyLit(img)).toBe(want);
          answers.push(want);
        }
    // Both answers occur, so the comparison means something.
    expect(answers.filter(Boolean).length).toBeGreaterThan(10);
    expect(answers.filter((a) => !a).length).toBeGreaterThan(10);
  });

  test("a scanned page is evenly lit", async () => {
    const scan = toGrey(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")));
    expect(fullTest(scan)).toBe(false);
    expect(unevenlyLit(scan)).toBe(false);
  });
});
