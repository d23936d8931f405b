/**
 * A till roll is read as one block of lines (psm 6), where tesseract drops a line in much larger type than the
 * rest: the merchant's logo. The second look for large type (stages/ocr/recover.ts addLargeLines) reads it. Each
 * logo style of the receipts-hard generator (big bold, letter-spaced bold capitals, big serif), scanned at 200 DPI.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Till } from "../../../../fixtures/varied/generator/hard-receipt-print";
import { layoutToPdf } from "../../../../fixtures/varied/generator/layout";
import { Rng } from "../../../../fixtures/varied/generator/random";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { scanOf, skewOf } from "../../../accuracy/scans.ts";
import { OCR_TIMEOUT } from "../../engines/ocr/helpers.ts";

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 1 });
});
afterAll(() => engine.close());

/** A receipt with `name` as its logo in `style`, then the usual lines in the till's small mono type. */
async function receiptScan(name: string, style: "bold" | "spaced" | "serif"): Promise<Uint8Array> {
  const t = new Till(new Rng(3));
  t.logo(name, style);
  t.center("Bahnhofstr. 33", 7);
  t.center("39969 Koeln", 7);
  t.rule();
  for (const [item, price] of [
    ["Roggenbrot", "4,35"],
    ["Butter 250g", "1,05"],
    ["Vollmilch", "1,19"],
  ])
    t.row(item!, price!);
  t.rule();
  t.row("SUMME EUR", "6,59", 9, "bold");
  t.row("Bar", "10,00");
  t.row("Rueckgeld", "3,41");
  t.row("11.06.2021 14:18", "BON 6694", 7);
  const pdf = await layoutToPdf(t.layout(), name);
  const file = await scanOf(pdf, `large-type-${style}.pdf`, { dpi: 200, angle: skewOf(style), quality: 60 });
  return new Uint8Array(await Bun.file(file).arrayBuffer());
}

for (const [name, style] of [
  ["FRISCHMARKT", "spaced"],
  ["HARBOUR FISH BAR", "bold"],
  ["TOKO SINAR JAYA", "serif"],
] as const) {
  test(
    `a ${style} logo above a till roll's lines is read ("${name}")`,
    async () => {
      const data = await receiptScan(name, style);
      const source = await convertSource(
        { index: 0, filename: `${style}.pdf`, data, split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: 1 },
      );
      try {
        await ocrPages(source.pages, engine);
        const text = source.pages[0]!.text.replace(/ /g, "");
        expect(text).toContain(name.replace(/ /g, ""));
        expect(text).toContain("SUMMEEUR");
      } finally {
        await source.close();
      }
    },
    OCR_TIMEOUT,
  );
}
