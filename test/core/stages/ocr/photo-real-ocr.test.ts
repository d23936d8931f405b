/**
 * Real-conditions phone photos of receipts (test/accuracy/photos-real.ts; seed 7, which the accuracy gate does not
 * use) read by the OCR stage with the real engine: the cost of a photo is held to a number of recognitions (the
 * sheet finding, evening, line straightening and enlarging are image work, not OCR calls): at most 8 of the page
 * (first reading, the smoothed pass, four orientation probes, the winning turn in full and one more) and at most 24
 * single lines (the second look's cap); no page fails, and the word boxes stay inside the photo.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { toPdf } from "../../../../fixtures/varied/generator";
import { generateHardReceipts } from "../../../../fixtures/varied/generator/hard-receipts";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { realPhotoOf } from "../../../accuracy/photos-real.ts";
import { loadRaster, OCR_TIMEOUT, pageOf } from "../../engines/ocr/helpers.ts";

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 2 });
});
afterAll(() => engine.close());

/** The engine, counting page recognitions and single-line ones (the second look reads lines in batches). */
function counted(count: { pages: number; lines: number }): OcrEngine {
  return {
    ...engine,
    recognize: (img, o) => (count.pages++, engine.recognize(img, o)),
    recognizeMany: async (imgs, o) => {
      count.lines += imgs.length;
      return engine.recognizeMany
        ? engine.recognizeMany(imgs, o)
        : Promise.all(imgs.map((i) => engine.recognize(i, o)));
    },
  };
}

for (const doc of generateHardReceipts(7, 4)) {
  test(
    `${doc.id}: read in at most 8 page and 24 line recognitions, word boxes inside the photo`,
    async () => {
      const file = await realPhotoOf(await toPdf(doc), `t7-${doc.id}`);
      const raster = await loadRaster(readFileSync(file));
      const page = pageOf(raster, path.basename(file));
      const count = { pages: 0, lines: 0 };
      const report = await ocrPages([page], counted(count));
      expect(report.failed).toEqual([]);
      expect(page.words.length).toBeGreaterThan(10);
      expect(count.pages).toBeLessThanOrEqual(8);
      expect(count.lines).toBeLessThanOrEqual(24);
      for (const w of page.words) {
        const [x1, y1, x2, y2] = w.bounding_box;
        expect(Math.min(x1, y1)).toBeGreaterThanOrEqual(0);
        expect(x2).toBeLessThanOrEqual(raster.width);
        expect(y2).toBeLessThanOrEqual(raster.height);
      }
    },
    OCR_TIMEOUT,
  );
}
