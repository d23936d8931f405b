/**
 * The second look at a scan's amounts and dates (src/core/stages/extract/second-look.ts): generated invoices in
 * Courier, scanned at 200 DPI and read by the real engine; then one word of the reading is put back the way OCR
 * misreads it on grainier scans (a group separator as a digit, a decimal mark lost, a year's 9 as an 8). The words
 * are read again enlarged, and the fields adopted only when the sums add up or the dates fit. The engine is counted:
 * a document whose sums and dates are consistent costs no render and no recognition.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import type { FieldResult, Page } from "../../../../src/core/model";
import { defaultProject } from "../../../../src/core/project";
import { extractFields } from "../../../../src/core/stages/extract";
import { secondLook } from "../../../../src/core/stages/extract/second-look";
import { countingEngine, scannedTextPage } from "./ocr-test-page";

let engine: OcrEngine;
const count = { calls: 0 };
/** The engine, counting the images it is given. */
let counted: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 1 });
  counted = countingEngine(engine, count);
});
afterAll(() => engine.close());

const TEXT = [
  "Polderweb B.V.",
  "Schipholweg 9, 2316 XB Leiden",
  "",
  "Factuur: F2735",
  "Factuurdatum: 10-04-2019",
  "Vervaldatum:  10-05-2019",
  "",
  "Omschrijving              Bedrag",
  "Hosting pakket XL       1.619,90",
  "Domeinen                  539,54",
  "",
  "Subtotaal            EUR 2.159,44",
  "BTW 21%              EUR   453,48",
  "Totaal               EUR 2.612,92",
].join("\n");

const scannedPage = (name: string) => scannedTextPage(TEXT, name, { angle: 0, quality: 75 }, engine);

const extract = (pages: Page[]) => extractFields(pages, "invoice", defaultProject);
const values = (f: Record<string, FieldResult>, ids: string[]) => ids.map((id) => f[id]?.value ?? null);
/** The page with the word reading `from` read as `to` instead, as unsure as tesseract is of such words. */
function misread(page: Page, from: string, to: string): Page {
  const word = page.words.find((w) => w.text === from);
  if (!word) throw new Error(`"${from}" not read: ${page.text}`);
  return { ...page, words: page.words.map((w) => (w === word ? { ...w, text: to, confidence: 0.4 } : w)) };
}

describe("second look at a scan's sums and dates", () => {
  let page: Page;
  beforeAll(async () => {
    page = await scannedPage("second-look");
  }, 120_000);

  test("the scan as read: sums add up and dates fit, and a second look costs nothing", async () => {
    const fields = extract([page]);
    expect(values(fields, ["subtotal_amount", "tax_amount", "total_amount"])).toEqual([2159.44, 453.48, 2612.92]);
    count.calls = 0;
    let renders = 0;
    const render = page.render!;
    const watched = { ...page, render: () => (renders++, render()) };
    expect(await secondLook([watched], fields, counted, extract)).toBe(fields);
    expect({ calls: count.calls, renders }).toEqual({ calls: 0, renders: 0 });
  }, 60_000);

  test("a total whose thousands separator OCR read as a digit, and a net it lost the decimal mark of", async () => {
    for (const [from, to, id] of [
      ["2.612,92", "27612,92", "total_amount"],
      ["2.159,44", "2.15944", "subtotal_amount"],
    ] as const) {
      const bad = misread(page, from, to);
      const first = extract([bad]);
      count.calls = 0;
      const fields = await secondLook(
        [bad],
        { ...first, [id]: { ...first[id]!, value: 1, confidence: 0.3 } },
        counted,
        extract,
      );
      expect(values(fields, ["subtotal_amount", "tax_amount", "total_amount"])).toEqual([2159.44, 453.48, 2612.92]);
      expect(fields[id]!.reasoning).toContain("second look");
      expect(count.calls).toBeGreaterThan(0);
      expect(count.calls).toBeLessThanOrEqual(16);
    }
  }, 60_000);

  test("an invoice date a year before its due date (a 9 read as an 8): read again, it fits", async () => {
    const bad = misread(page, "10-04-2019", "10-04-2018");
    const first = extract([bad]);
    expect(first.invoice_date!.value).toBe("2018-04-10");
    const fields = await secondLook([bad], first, counted, extract);
    expect(values(fields, ["invoice_date", "due_date"])).toEqual(["2019-04-10", "2019-05-10"]);
  }, 60_000);

  test("a reading that does not add up is not adopted: the first reading stands", async () => {
    // The words read again are what was printed; the total field holds a value no reading gives.
    const first = extract([page]);
    const broken: Record<string, FieldResult> = {
      ...first,
      total_amount: { ...first.total_amount!, value: 9999.99, confidence: 0.3 },
    };
    const text = page.text;
    const fields = await secondLook([page], broken, counted, (p) => ({
      ...extract(p),
      total_amount: broken.total_amount!,
    }));
    expect(fields.total_amount!.value).toBe(9999.99);
    expect(page.text).toBe(text);
  }, 60_000);
});
