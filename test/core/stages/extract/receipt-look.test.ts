/**
 * The second look at a till receipt's sums rows (src/core/stages/extract/receipt-look.ts): generated receipts in
 * Courier, scanned at 200 DPI (greyscale JPEG q60 in a PDF, drawn at 300 DPI for OCR) and read by the real engine,
 * which loses their amounts far right of the labels in the JPEG speckle enlarged without smoothing (".60", "“B3", as
 * on real receipt scans: "49.70" read ".70"). The rows are read again at the scan's own pixels and the total adopted
 * only when tendered − change, the items or subtotal + tax confirm it. The engine is counted: a receipt whose total is
 * confirmed costs no render and no recognition, and a look is bounded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Rng } from "../../../../fixtures/varied/generator/random";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import type { FieldResult, Page, RasterImage } from "../../../../src/core/model";
import { defaultProject } from "../../../../src/core/project";
import { extractFields } from "../../../../src/core/stages/extract";
import { receiptSecondLook, receiptTotalConfirmed } from "../../../../src/core/stages/extract/receipt-look";
import { photoPage, wordsOfLines } from "../../extract/ocr-photo-page";
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

const money = (cents: number) => (cents / 100).toFixed(2);
const row = (label: string, amount: string) => `${label.padEnd(30)}${amount.padStart(10)}`;

/** A generated till receipt: items, the total under `label`, cash and change; its total in cents. */
function receiptText(seed: number, label: string): { text: string; total: number; cash: number } {
  const r = new Rng(seed);
  const items = Array.from({ length: r.int(2, 4) }, () => r.int(150, 3000));
  const total = items.reduce((a, b) => a + b, 0);
  const cash = (Math.floor(total / 1000) + 1) * 1000;
  const names = ["Green Tea", "Yakiniku Bowl", "Miso Soup", "Beef Curry", "Iced Lemon Tea", "Fried Rice"];
  const text = [
    `${r.pick(["KEDAI MAKAN SRI MAJU", "RESTORAN SELERA KITA", "YHM NOODLE HOUSE"])} SDN BHD`,
    `NO ${r.int(1, 90)}, JALAN BESAR, ${r.int(40, 81)}${r.digits(3)} KUALA LUMPUR`,
    "TAX INVOICE",
    `Date: ${r.int(10, 28)}/0${r.int(1, 9)}/2018 19:${r.int(10, 59)}`,
    "",
    ...items.map((c, i) => row(names[i]!, money(c))),
    "",
    row(label, money(total)),
    row("Cash", money(cash)),
    row("Change", money(cash - total)),
    "",
    "THANK YOU, PLEASE COME AGAIN",
  ].join("\n");
  return { text, total, cash };
}

const scannedPage = (text: string, name: string) => scannedTextPage(text, name, { angle: 0.8, quality: 60 }, engine);

const extract = (pages: Page[]) => extractFields(pages, "receipt", defaultProject);
const LOCALE = defaultProject.locale;

describe("second look at a till receipt's sums rows", () => {
  // The total under a label the sums' list does not start with ("NET A PAYER"): the rows start at the total's line.
  const receipts = [receiptText(11, "TOTAL : MYR"), receiptText(12, "NET A PAYER")];
  const pages: Page[] = [];
  beforeAll(async () => {
    for (const [i, r] of receipts.entries()) pages.push(await scannedPage(r.text, `receipt-look-${i}`));
  }, 120_000);

  test("amounts of a JPEG scan lost at 300 DPI are read at its own pixels; then a look costs nothing", async () => {
    for (const [i, page] of pages.entries()) {
      const { total } = receipts[i]!;
      const first = extract([page]);
      expect(first.total_amount?.value ?? null).not.toBe(total / 100);
      count.calls = 0;
      const fields = await receiptSecondLook([page], first, counted, extract, LOCALE);
      expect(fields.total_amount?.value).toBe(total / 100);
      expect(fields.total_amount!.reasoning).toContain("second look");
      expect(count.calls).toBeGreaterThan(0);
      expect(count.calls).toBeLessThanOrEqual(14);
      // The page keeps the rows read again: its total is confirmed now, and a look costs no render and no recognition.
      expect(extract([page]).total_amount?.value).toBe(total / 100);
      count.calls = 0;
      let renders = 0;
      const render = page.render as (o?: unknown) => Promise<RasterImage>;
      const watched = { ...page, render: (o?: unknown) => (renders++, render(o)) };
      expect(await receiptSecondLook([watched], fields, counted, extract, LOCALE)).toBe(fields);
      expect({ calls: count.calls, renders }).toEqual({ calls: 0, renders: 0 });
    }
  }, 60_000);

  test("a reading that the receipt's arithmetic does not confirm is not adopted: the first reading stands", async () => {
    const page = pages[0]!;
    const first = extract([page]);
    const broken: Record<string, FieldResult> = {
      ...first,
      total_amount: { ...first.total_amount!, value: 999.99, confidence: 0.3 },
    };
    const text = page.text;
    const fields = await receiptSecondLook(
      [page],
      broken,
      counted,
      (p) => ({ ...extract(p), total_amount: broken.total_amount! }),
      LOCALE,
    );
    expect(fields.total_amount!.value).toBe(999.99);
    expect(page.text).toBe(text);
  }, 60_000);

  test("a 200-DPI greyscale scan comes back at its own pixels when asked (RenderOptions.own), else at 300 DPI", async () => {
    const page = pages[0]!;
    const render = page.render as (o?: unknown) => Promise<RasterImage>;
    const own = await render({ grayscale: true, own: true });
    const drawn = await render({ grayscale: true });
    expect(drawn.width).toBe(page.image_transform.rasterized_width);
    expect(Math.abs(own.width / drawn.width - 2 / 3)).toBeLessThan(0.01);
  }, 60_000);
});

describe("the receipt's arithmetic", () => {
  const page = (lines: string[]) => photoPage(wordsOfLines(lines, 40), lines.join("\n"), 40 + lines.length * 30);
  const fields = (total: number): Record<string, FieldResult> => ({
    total_amount: {
      name: "Total",
      value: total,
      confidence: 0.7,
      reasoning: "",
      bounding_boxes: [],
      review_required: false,
      is_confirmed: false,
    },
  });

  test("a photo's receipt whose total nothing confirms is not read again: no render, no recognition", async () => {
    let renders = 0;
    const p = {
      ...page(["KEDAI MAJU SDN BHD", "Nasi Lemak 4.50", "TOTAL 7.40", "Cash 10.00", "Change 1.60"]),
      render: async () => (
        renders++, { data: new Uint8Array(700 * 200).fill(255), width: 700, height: 200, channels: 1 }
      ),
    } as Page;
    count.calls = 0;
    const first = fields(7.4);
    expect(receiptTotalConfirmed([p], first, LOCALE)).toBe(false);
    expect(await receiptSecondLook([p], first, counted, extract, LOCALE)).toBe(first);
    expect({ calls: count.calls, renders }).toEqual({ calls: 0, renders: 0 });
  });

  test("a till's 'Cash Change' row is the change, not what was tendered", () => {
    const p = page(["TOTAL : MYR 49.70", "Cash 50.00", "Cash Change 0.30"]);
    expect(receiptTotalConfirmed([p], fields(49.7), LOCALE)).toBe(true);
    expect(receiptTotalConfirmed([p], fields(50), LOCALE)).toBe(false);
  });
});
