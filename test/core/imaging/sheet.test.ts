/**
 * Photographed sheets (imaging/sheet.ts, sheet-warp.ts, the OCR stage's use of them): the paper found on a darker
 * surface under uneven light, turn and perspective; no sheet on scans and rendered pages; and phone photos of
 * generated till receipts (a seed the accuracy gate does not use) read with their column of amounts, every word box
 * mapped back onto the paper in the photo.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { toPdf } from "../../../fixtures/varied/generator";
import { generateReceipts } from "../../../fixtures/varied/generator/shop-receipts";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr/index.ts";
import type { GreyImage } from "../../../src/core/imaging/grey.ts";
import type { RasterImage } from "../../../src/core/model.ts";
import { findSheet, type Point } from "../../../src/core/imaging/sheet.ts";
import { squareUp } from "../../../src/core/imaging/sheet-warp.ts";
import { ocrPages } from "../../../src/core/stages/ocr/index.ts";
import { photoOf } from "../../accuracy/photos.ts";
import { loadRaster, OCR_TIMEOUT, pageOf, TESSERACT_TEST } from "../engines/ocr/helpers.ts";

function insideQuad(corners: Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b] = [corners[i]!, corners[(i + 1) % 4]!];
    const z = Math.sign((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
    if (z && sign && z !== sign) return false;
    if (z) sign = z;
  }
  return true;
}

/** A sheet with rows of dark "text" bars, placed at `corners` on a surface of tone `table`, lit falling off to the right. */
function photo(corners: Point[], width: number, height: number, table = 90, fall = 0.4): GreyImage {
  const data = new Uint8Array(width * height);
  const inside = (x: number, y: number) => {
    let sign = 0;
    for (let i = 0; i < 4; i++) {
      const [a, b] = [corners[i]!, corners[(i + 1) % 4]!];
      const z = Math.sign((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
      if (z && sign && z !== sign) return false;
      if (z) sign = z;
    }
    return true;
  };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const light = 1 - (fall * x) / width;
      const text = y % 40 < 14 && x % 23 < 15 && (y >> 3) % 7 !== 0;
      const tone = inside(x, y) ? (text ? 60 : 240) : table + ((x * 7 + y * 13) % 11);
      data[y * width + x] = Math.round(tone * light);
    }
  return { data, width, height };
}

const greyOf = (r: RasterImage): GreyImage => ({
  data: r.data.filter((_, i) => i % r.channels === 0),
  width: r.width,
  height: r.height,
});
const near = (a: Point, b: Point, tolerance: number) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance;

describe("findSheet: the paper of a photo", () => {
  test("finds a turned, perspective-warped sheet under light falling off by 40%, corners within 1.5% of its size", () => {
    const corners: Point[] = [
      [130, 95],
      [690, 130],
      [655, 930],
      [95, 900],
    ];
    const sheet = findSheet(photo(corners, 800, 1000));
    expect(sheet).not.toBeNull();
    for (const [i, c] of sheet!.corners.entries()) expect(near(c, corners[i]!, 15)).toBe(true);
  });

  test("a receipt running out of the frame at top and bottom keeps its sides and takes the frame's edges", () => {
    const corners: Point[] = [
      [200, -50],
      [520, -40],
      [540, 1050],
      [220, 1040],
    ];
    const sheet = findSheet(photo(corners, 800, 1000));
    expect(sheet).not.toBeNull();
    const [tl, tr, br, bl] = sheet!.corners;
    expect(tl[1]).toBe(0);
    expect(bl[1]).toBe(1000);
    expect(Math.abs(tl[0] - 199)).toBeLessThan(12);
    expect(Math.abs(tr[0] - 520)).toBeLessThan(12);
    expect(Math.abs(br[0] - 539)).toBeLessThan(12);
  });

  test("a side lost on a busy table runs through where the sides beside it end, not along the frame's border", () => {
    // A busy cloth (4-pixel checks, dark and as bright as the paper) below the sheet's bottom edge: every scan up
    // from the frame's bottom meets a check's edge first, so that side has no steps to fit.
    const corners: Point[] = [
      [150, 100],
      [650, 120],
      [640, 700],
      [140, 690],
    ];
    const img = photo(corners, 800, 1000);
    const lost = (x: number, y: number) => y > 690 + (x - 140) * 0.02 && !insideQuad(corners, x, y);
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++)
        if (lost(x, y)) img.data[y * img.width + x] = ((x >> 2) + (y >> 2)) % 2 ? 235 : 70;
    const sheet = findSheet(img);
    expect(sheet).not.toBeNull();
    const [tl, tr, br, bl] = sheet!.corners;
    expect(near(tl, corners[0]!, 15)).toBe(true);
    expect(near(tr, corners[1]!, 15)).toBe(true);
    // The bottom within a few percent of the paper's (its margin), well above the frame's border at 1000.
    for (const [c, truth] of [
      [br, corners[2]!],
      [bl, corners[3]!],
    ] as const) {
      expect(Math.abs(c[0] - truth[0])).toBeLessThan(20);
      expect(c[1]).toBeGreaterThan(truth[1] - 15);
      expect(c[1]).toBeLessThan(truth[1] + 45);
    }
  });

  test("no sheet on scans and rendered pages (white surround), nor on a page filling the frame", async () => {
    for (const f of ["phototest.tif", "eurotext.tif", "8087_054.3B.tif"]) {
      const raster = await loadRaster(path.join(TESSERACT_TEST, f));
      expect(findSheet(greyOf(raster))).toBeNull();
    }
    const full: Point[] = [
      [0, 0],
      [800, 0],
      [800, 1000],
      [0, 1000],
    ];
    expect(findSheet(photo(full, 800, 1000))).toBeNull();
    // A sheet on a surface as bright as itself has no edge to find.
    expect(
      findSheet(
        photo(
          [
            [100, 100],
            [700, 100],
            [700, 900],
            [100, 900],
          ],
          800,
          1000,
          235,
          0,
        ),
      ),
    ).toBeNull();
  });

  test("squareUp evens the light: the paper reads near white on both sides, the text stays dark", () => {
    const corners: Point[] = [
      [130, 95],
      [690, 130],
      [655, 930],
      [95, 900],
    ];
    const img = photo(corners, 800, 1000, 90, 0.5);
    const { image, toSource } = squareUp(img, findSheet(img)!);
    const tone = (x1: number, x2: number) => {
      const v: number[] = [];
      for (let y = 0; y < image.height; y++) for (let x = x1; x < x2; x++) v.push(image.data[y * image.width + x]!);
      v.sort((a, b) => a - b);
      return { dark: v[Math.floor(v.length * 0.05)]!, paper: v[Math.floor(v.length * 0.6)]! };
    };
    const [left, right] = [tone(20, 120), tone(image.width - 120, image.width - 20)];
    expect(left.paper).toBeGreaterThan(230);
    expect(right.paper).toBeGreaterThan(230);
    expect(left.dark).toBeLessThan(110);
    expect(right.dark).toBeLessThan(110);
    // The squared image's corner box maps back near the photo's corner.
    const [x1, y1] = toSource([0, 0, 1, 1]);
    expect(near([x1, y1], corners[0]!, 15)).toBe(true);
  });
});

describe("OCR of phone photos of till receipts", () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "auto", workers: 2 });
  });
  afterAll(() => engine.close());

  const receipts = generateReceipts(7, 3);
  for (const doc of receipts) {
    test(
      `${doc.id} (${doc.notes[0]}): the total ${doc.truth.total_amount} is read, word boxes lie on the paper`,
      async () => {
        const file = await photoOf(await toPdf(doc), `sheet-test-${doc.id}`);
        const raster = await loadRaster(readFileSync(file));
        const page = pageOf(raster, path.basename(file));
        await ocrPages([page], engine);
        const total = Number(doc.truth.total_amount).toFixed(2);
        const amounts = page.words.map((w) => w.text.replace(/[^\d.,-]/g, "").replace(",", "."));
        expect(amounts).toContain(total);
        const sheet = findSheet(greyOf(raster))!;
        const xs = sheet.corners.map((c) => c[0]);
        const ys = sheet.corners.map((c) => c[1]);
        for (const w of page.words) {
          const [x1, y1, x2, y2] = w.bounding_box;
          expect(x1).toBeGreaterThanOrEqual(Math.min(...xs) - 5);
          expect(x2).toBeLessThanOrEqual(Math.max(...xs) + 5);
          expect(y1).toBeGreaterThanOrEqual(Math.min(...ys) - 5);
          expect(y2).toBeLessThanOrEqual(Math.max(...ys) + 5);
        }
      },
      OCR_TIMEOUT,
    );
  }
});
