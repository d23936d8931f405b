/**
 * Speckle taken out of a scanned till roll before it is read (imaging/despeckle.ts, used by the OCR stage on pages
 * read as one block of lines): the 3 × 3 median loses isolated specks and keeps strokes and decimal points; and a
 * generated till roll in small monospaced print, scanned at 200 DPI (JPEG q60, the gate's scan recipe), reads its
 * labels and amounts without the ":" and "'" the specks became.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Flow, layoutToPdf } from "../../../fixtures/varied/generator/layout";
import { Rng } from "../../../fixtures/varied/generator/random";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr/index.ts";
import { median3 } from "../../../src/core/imaging/despeckle.ts";
import { convertSource } from "../../../src/core/stages/convert";
import { ocrPages } from "../../../src/core/stages/ocr/index.ts";
import { scanOf } from "../../accuracy/scans.ts";
import { OCR_TIMEOUT } from "../engines/ocr/helpers.ts";

test("the 3 × 3 median loses isolated specks, keeps a 3-pixel stroke and a 3 × 3 decimal point", () => {
  const [w, h] = [60, 40];
  const data = new Uint8Array(w * h).fill(240);
  const r = new Rng(5);
  for (let i = 0; i < 40; i++) data[r.int(1, h - 2) * w + r.int(1, w - 2)] = 30;
  for (let y = 10; y < 13; y++) for (let x = 5; x < 50; x++) data[y * w + x] = 20;
  for (let y = 25; y < 28; y++) for (let x = 30; x < 33; x++) data[y * w + x] = 20;
  const out = median3({ data, width: w, height: h }).data;
  const dark = (x: number, y: number) => out[y * w + x]! < 128;
  expect(dark(20, 11) && dark(31, 26)).toBe(true);
  let specks = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (dark(x, y) && !(y >= 10 && y < 13) && !(y >= 25 && y < 28)) specks++;
  expect(specks).toBe(0);
});

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 2 });
});
afterAll(() => engine.close());

/** A till roll as a small shop's printer lays it out: labels left, a colon, amounts flush right, 7.5-pt Courier. */
async function tillRoll(r: Rng): Promise<{ pdf: Uint8Array; amounts: string[] }> {
  const W = 230;
  const rows: Array<[string, string?]> = [
    ["STATIONERY & BOOKS"],
    [`GST No. : ${r.digits(12)}`],
    ["SIMPLIFIED TAX INVOICE"],
  ];
  const amounts: string[] = [];
  for (const label of ["SUB-TOTAL (EX)", "TOTAL TAX", "ROUNDING", "TOTAL", "CASH", "CHANGE"]) {
    const amount = `${r.int(1, 300)}.${r.digits(2)}`;
    rows.push([label], [":", amount]);
    amounts.push(amount);
  }
  rows.push(["GOODS SOLD ARE NOT RETURNABLE,"], ["THANK YOU."]);
  const flow = new Flow(W, rows.length * 11 + 120, 40, 40);
  for (const [left, right] of rows)
    flow.line(
      [{ text: left, x: 12 }, ...(right ? [{ text: right, x: W - 12, align: "right" as const }] : [])],
      11,
      7.5,
      "mono",
    );
  return { pdf: await layoutToPdf(flow.layout(), "till"), amounts };
}

test(
  "a speckled 200-DPI scan of a till roll in small print reads its labels and amounts",
  async () => {
    const r = new Rng(41);
    for (let i = 0; i < 2; i++) {
      const { pdf, amounts } = await tillRoll(r);
      const scan = await scanOf(pdf, `despeckle-${i}.pdf`, { dpi: 200, angle: 1.2, quality: 60 });
      const converted = await convertSource(
        { index: 0, filename: "scan.pdf", data: new Uint8Array(readFileSync(scan)), split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: 1 },
      );
      try {
        await ocrPages(converted.pages, engine);
        const lines = converted.pages[0]!.text.split("\n").map((l) => l.trim());
        for (const label of ["SUB-TOTAL (EX)", "TOTAL TAX", "ROUNDING", "TOTAL", "CASH", "CHANGE"])
          expect(lines).toContain(label);
        for (const amount of amounts) expect(lines.some((l) => l.endsWith(amount))).toBe(true);
      } finally {
        await converted.close();
      }
    }
  },
  4 * OCR_TIMEOUT,
);
