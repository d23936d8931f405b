/**
 * A long till roll photographed whole (stages/ocr/geometry.ts): its squared sheet is several times as long as it is
 * wide, and the layout analysis (scaled by the long side) finds no line height on it, yet it is a till roll: read
 * squared up as one block of lines (psm 6), not as the frame with its dark surround (measured on a local set of
 * receipt photos: the merchant's head and the total of such a roll were lost). A page photographed on a desk keeps
 * the frame's reading.
 */
import { expect, test } from "bun:test";
import type { GreyImage } from "../../../../src/core/imaging/grey.ts";
import { pageGeometry, SINGLE_BLOCK } from "../../../../src/core/stages/ocr/geometry.ts";

/** A sheet of rows of dark "words" (`pitch` px apart) at x0..x1 × y0..y1 on a darker table of `W` × `H`. */
function photo(W: number, H: number, [x0, y0, x1, y1]: number[], pitch: number): GreyImage {
  const data = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= x0! && x < x1! && y >= y0! && y < y1!;
      const row = (y - y0!) % pitch;
      const word = ((x >> 6) + Math.floor(y / pitch)) % 5 !== 0 && (x - x0!) % 14 < 9;
      const ink = inside && row >= 8 && row < 8 + Math.round(pitch * 0.4) && word && x > x0! + 30 && x < x1! - 30;
      data[y * W + x] = inside ? (ink ? 70 : 225) : 80 + ((x * 7 + y * 13) % 11);
    }
  return { data, width: W, height: H };
}

test("a photographed sheet five times as long as it is wide is read squared up as one block of lines", () => {
  for (const pitch of [16, 24]) {
    const g = pageGeometry(photo(1000, 3600, [150, 100, 850, 3500], pitch), undefined);
    expect(g.sheet).not.toBeNull();
    expect(g.psm).toBe(SINGLE_BLOCK);
    expect(g.grey.height).toBeGreaterThan(4 * g.grey.width);
  }
}, 60_000);

test("a long roll whose monospaced columns the layout takes for lines running down is still read as a roll", () => {
  // Dense rows of a monospaced font: the characters' columns line up from top to bottom, sharper than the rows.
  const [W, H, x0, y0, x1, y1] = [700, 2000, 100, 80, 560, 1920];
  const data = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= x0 && x < x1 && y >= y0 && y < y1;
      const ink = inside && (y - y0) % 18 < 15 && (x - x0) % 14 < 7 && x > x0 + 30 && x < x1 - 30 && y > y0 + 30;
      data[y * W + x] = inside ? (ink && y < y1 - 30 ? 70 : 225) : 80 + ((x * 7 + y * 13) % 11);
    }
  const g = pageGeometry({ data, width: W, height: H }, undefined);
  expect(g.layout.lineAxis).toBe("down");
  expect(g.sheet).not.toBeNull();
  expect(g.psm).toBe(SINGLE_BLOCK);
}, 60_000);

test("a page photographed on a desk (a sheet of a page's proportions) keeps the frame's reading", () => {
  const g = pageGeometry(photo(1400, 1800, [150, 150, 1250, 1650], 24), undefined);
  expect(g.sheet).toBeNull();
}, 60_000);
