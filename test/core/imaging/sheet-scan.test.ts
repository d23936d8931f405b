/**
 * The sheet search's shortcut for scans and rendered pages (imaging/sheet.ts `paperAtEveryBorder`): paper at every
 * border means no scan can find the step from a darker surround, so no small copy of the page is made.
 */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { toGrey, type GreyImage } from "../../../src/core/imaging/grey.ts";
import { findSheet, paperAtEveryBorder, sheetSmallCopies } from "../../../src/core/imaging/sheet.ts";
import { loadRaster, TESSERACT_TEST } from "../engines/ocr/helpers.ts";

/** A page of `tone` with a border `edge` pixels wide of tone `border`, and rows of dark bars inside. */
function page(width: number, height: number, tone: number, border: number, edge = 16): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const rim = x < edge || y < edge || x >= width - edge || y >= height - edge;
      const text = !rim && y % 40 < 14 && x % 23 < 15;
      data[y * width + x] = rim ? border : text ? 40 : tone;
    }
  return { data, width, height };
}

describe("paperAtEveryBorder", () => {
  test("a scanned page (white around its text) is paper at every border, and has no sheet", async () => {
    const scan = toGrey(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")));
    expect(paperAtEveryBorder(scan, 2)).toBe(true);
    const before = sheetSmallCopies();
    expect(findSheet(scan)).toBeNull();
    expect(sheetSmallCopies() - before).toBe(0);
  });

  test("a border 1.5^0.6 times darker than white or more is left to the search; brighter is not", () => {
    // ln(256) - ln(1 + tone) against ln(1.5) × 0.6 = 0.2433: tone 201 is 0.2377 below white, 198 is 0.2527.
    expect(paperAtEveryBorder(page(400, 560, 255, 201), 2)).toBe(true);
    expect(paperAtEveryBorder(page(400, 560, 255, 198), 2)).toBe(false);
  });

  test("a sheet on a darker table is not cut short", () => {
    const photo = page(480, 640, 240, 90, 60);
    expect(paperAtEveryBorder(photo, 2)).toBe(false);
    const before = sheetSmallCopies();
    expect(findSheet(photo)).not.toBeNull();
    expect(sheetSmallCopies() - before).toBe(1);
  });

  test("one dark cell on one border is enough to search", () => {
    const img = page(400, 560, 255, 255);
    for (let y = 200; y < 210; y++) for (let x = 0; x < 4; x++) img.data[y * img.width + x] = 60;
    expect(paperAtEveryBorder(img, 2)).toBe(false);
  });
});
