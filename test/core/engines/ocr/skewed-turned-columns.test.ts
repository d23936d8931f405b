/**
 * Two- and three-column pages (test/accuracy/layout-pages.ts, the reading-order corpus's layouts) scanned at 200 DPI
 * with JPEG noise, turned a half or three quarters AND skewed, read by the real OCR stage: the character error rate
 * against the true text in reading order stays low, and the reading costs the same recognitions as before (the
 * layout mechanisms are geometry on the words read, no pass of their own).
 *
 * Measured with tesseract 5.3 (2026-11-28) before / after the gutter and line mechanisms (gutters.ts
 * clipIntoGutters and doubtful marks, reading-order.ts pictureNoise, layout-blocks.ts OCR's own lines in unstack):
 * two-narrow turned 181°: 0.414 / 0.008 (a picture's grey read as "1" "5" carried a line across the page);
 * three turned 178.5°: 0.114 / 0.002 (a word read at confidence 0 whose box took in the gutter's grain);
 * two-wide-ragged turned 268°: 0.088 / 0.003 (grain in the gutter read as "~~." at 0.62);
 * three-ragged skewed 1.8°: 0.223 / 0.003 (a word without ascenders took the next column's line for its own);
 * three-ragged turned 182°: 0.167 / 0.006 (a gutter just under a table's amounts was not found).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { convertSource } from "../../../../src/core/stages/convert";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { columnScan } from "../../../accuracy/columns-corpus";
import type { ScanVariant } from "../../../accuracy/scans";
import { counted } from "../../stages/ocr/language-pages";
import { characterErrorRate } from "./helpers.ts";

/** Above what these pages measured after the change (≤ 0.008), far below a page whose blocks are out of order. */
const MAX_CER = 0.02;
/**
 * Recognitions per page: an English page read the right way first costs one reading of the page and a few
 * crossed-block or second-look lines at most (measured 1-3); a page upside down first reads weakly, then a smoothed
 * pass, orientation probes on a window and the page at its turn (measured 6-7), as before these mechanisms.
 */
const maxCalls = (angle: number) => (Math.abs(angle - 180) <= 5 ? 8 : 3);

const CASES: Array<{ layout: string; variant: ScanVariant }> = [
  { layout: "two-narrow", variant: { dpi: 200, angle: 181, quality: 60 } },
  { layout: "three", variant: { dpi: 200, angle: 178.5, quality: 60 } },
  { layout: "two-wide-ragged", variant: { dpi: 200, angle: 268, quality: 60 } },
  { layout: "three-ragged", variant: { dpi: 200, angle: 1.8, quality: 60 } },
  { layout: "three-ragged", variant: { dpi: 200, angle: 182, quality: 60 } },
];

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 2 });
});
afterAll(() => engine.close());

describe("column pages scanned turned and skewed at 200 DPI are read in column order", () => {
  for (const { layout, variant } of CASES) {
    test(`${layout} turned ${variant.angle}°: CER ≤ ${MAX_CER}, at most ${maxCalls(variant.angle)} recognitions`, async () => {
      const { name, scan, text } = await columnScan(layout, variant);
      const converted = await convertSource(
        { index: 0, filename: `${name}.pdf`, data: new Uint8Array(readFileSync(scan)), split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      );
      try {
        const counting = counted(engine);
        await ocrPages(converted.pages, counting);
        const cer = characterErrorRate(converted.pages[0]!.text, text);
        console.log(`${name}: CER ${cer.toFixed(4)}, ${counting.calls.length} recognitions`);
        expect(cer).toBeLessThanOrEqual(MAX_CER);
        expect(counting.calls.length).toBeLessThanOrEqual(maxCalls(variant.angle));
      } finally {
        await converted.close();
      }
    }, 240_000);
  }
});
