/**
 * Reading a page's geometry (src/core/stages/ocr/read-geometry.ts): a frame without lines that offers its
 * photographed sheet keeps the sheet's reading only when that reads at least twice the frame's plausible text (a
 * faint sideways receipt whose frame reads a heading and an amount); a page photo reading about as much either way
 * keeps the frame's reading, whose layout keeps its label/value rows.
 */
import { expect, test } from "bun:test";
import type { PageLayout } from "../../../../src/core/engines/ocr/layout.ts";
import type { OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import type { RasterImage, Word } from "../../../../src/core/model.ts";
import type { PageGeometry } from "../../../../src/core/stages/ocr/geometry.ts";
import { readPageGeometry } from "../../../../src/core/stages/ocr/read-geometry.ts";
import { fakeEngine } from "./fake-engine.ts";

const layoutOf = (w: number, h: number): PageLayout => ({
  inkBox: [0, 0, w, h],
  contentBox: [0, 0, w, h],
  lineAxis: "across",
  skew: 0,
  lineHeight: 30,
});

function geometry(w: number, h: number): PageGeometry {
  return {
    grey: { data: new Uint8Array(w * h).fill(255), width: w, height: h },
    sheet: null,
    layout: layoutOf(w, h),
    psm: 6,
  };
}

const words = (texts: string[]): Word[] =>
  texts.map((text, i) => ({ text, bounding_box: [10 + 120 * i, 10, 100 + 120 * i, 40], confidence: 0.9 }));

/** The frame (800 px wide) reads `frame` words, the sheet (500 px wide) `sheet` words, upright either way. */
function engineReading(frame: string[], sheet: string[]) {
  return fakeEngine((img: RasterImage): OcrResult => {
    const texts = img.width === 800 ? frame : sheet;
    return { words: words(texts), text: texts.join(" "), confidence: 0.9 };
  });
}

const RECEIPT = [
  "UNIHAKKA",
  "INTERNATIONAL",
  "TAX",
  "INVOICE",
  "DATE",
  "23/04/16",
  "TOTAL",
  "461.45",
  "CASH",
  "500.00",
];

test("a frame without lines keeps its sheet's reading when that reads at least twice the text", async () => {
  const g = { ...geometry(800, 600), orSheet: geometry(500, 700) };
  const read = await readPageGeometry(g, undefined, engineReading(["TAX", "INVOICE", "461.43"], RECEIPT));
  expect(read.geometry).toBe(g.orSheet);
  expect(read.reading.result.text).toContain("UNIHAKKA");
});

test("a frame reading about as much as its sheet keeps the frame's reading", async () => {
  const g = { ...geometry(800, 600), orSheet: geometry(500, 700) };
  const read = await readPageGeometry(g, undefined, engineReading(RECEIPT.slice(0, 8), RECEIPT));
  expect(read.geometry).toBe(g);
  // Without a sheet offered, the frame is read once.
  let calls = 0;
  const once = fakeEngine(() => (calls++, { words: words(RECEIPT), text: RECEIPT.join(" "), confidence: 0.9 }));
  expect((await readPageGeometry(geometry(800, 600), undefined, once)).geometry.grey.width).toBe(800);
  expect(calls).toBe(1);
});
