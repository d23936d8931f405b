/**
 * A till receipt titled "TAX INVOICE" (Malaysia, Singapore, Australia, India: the law asks tills to print it) is a
 * receipt: on a document with till-receipt traits, the invoice class's title cues ("TAX INVOICE", "INVOICE NO",
 * "Rechnung") count for the receipt as much (classify/structure.ts tillTitleBonus). Generated receipts read by OCR
 * as photos (a column of short lines) and as till-roll pages; invoices with the same titles and words but no till
 * trait stay invoices. Also OCR's stray mark between "CHANGE" and its amount, and item rows of quantity × price.
 */
import { describe, expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import type { Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { structureBonus } from "../../../src/core/classify/structure";
import { wordsOfLines } from "../extract/ocr-photo-page";

/** An OCR page of `lines` (10 px per character, 30 px apart): a photo (pixels) or a till roll's page (points). */
function page(lines: string[], roll = false): Page {
  const words = wordsOfLines(lines, 20);
  const [w, h] = roll ? [230, 120 + lines.length * 11] : [700, 80 + lines.length * 30];
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: roll ? "r.pdf" : "r.jpg",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: roll ? w * 4 : w,
      rasterized_height: roll ? h * 4 : h,
      source_width: w,
      source_height: h,
      source_unit: roll ? "point" : "pixel",
      render_scale: roll ? 4 : 1,
      effective_dpi: roll ? 288 : null,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "ocr",
    words,
    text: lines.join("\n"),
    ocr_confidence: 0.9,
  };
}

const money = (cents: number) => (cents / 100).toFixed(2);
const pad = (n: number) => String(n).padStart(2, "0");

/** A generated GST till receipt: title and number, items, total, and one or two of the till's own marks. */
function tillReceipt(r: Rng): string[] {
  const items = Array.from({ length: r.int(2, 5) }, () => [r.int(1, 6), r.int(100, 6000)] as const);
  const total = items.reduce((s, [q, c]) => s + q * c, 0);
  const paid = Math.ceil(total / 1000) * 1000;
  const date = `${pad(r.int(1, 28))}/${pad(r.int(1, 12))}/2018`;
  const marks = r.pick([
    [`${date} ${r.int(1, 12)}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))} PM`],
    [`CASH ${money(paid)}`, `CHANGE ${r.pick(["", "i ", ": "])}${money(paid - total)}`],
    [`Date ${date}`, `CASH ${money(paid)}`, `CHANGE ${money(paid - total)}`],
  ]);
  return [
    `${r.pick(["PETRON", "SHELL", "KEDAI", "RESTORAN"])} ${r.pick(["BKT LANJAN", "MAJU JAYA", "SRI MELATI"])} SDN BHD`,
    `(${r.digits(7)}-${r.pick(["H", "M", "K"])})`,
    r.pick(["TAX INVOICE", "SIMPLIFIED TAX INVOICE", "INVOICE"]),
    `${r.pick(["TAX INVOICE NO", "INVOICE NO", "INV NO"])}: ${r.pick(["CS-", "", "T"])}${r.digits(8)}`,
    `GST ID No: ${r.digits(12)}`,
    ...items.flatMap(([q, c], i) => [`${i + 1}. ITEM ${r.pick(["OIL", "BULB", "TEA", "BREAD"])}`, `${q}X ${money(c)}`]),
    `Total Inclusive GST @6% ${money(total)}`,
    ...marks,
    "GST Summary Amount (RM) Tax (RM)",
    `SR @ 6% ${money(Math.round(total / 1.06))} ${money(total - Math.round(total / 1.06))}`,
  ];
}

describe("a till receipt titled TAX INVOICE is a receipt", () => {
  test("generated GST till receipts, read from photos and from till-roll pages", () => {
    const r = new Rng(32);
    const wrong: string[] = [];
    for (let i = 0; i < 24; i++) {
      const lines = tillReceipt(r);
      const c = classifyDocument([page(lines, i % 2 === 1)], defaultProject);
      if (c.class_id !== "receipt") wrong.push(`${c.class_id}: ${lines.join(" | ")} (${c.reasoning})`);
      else expect(c.reasoning).toContain("printed as the till's title");
    }
    expect(wrong).toEqual([]);
  });

  test("invoices with the same titles and words but no till trait stay invoices", () => {
    const r = new Rng(33);
    for (let i = 0; i < 12; i++) {
      const lines = [
        `${r.pick(["ANEKA", "SINAR", "TEKNO"])} ${r.pick(["TRADING", "SUPPLIES", "ENGINEERING"])} SDN BHD (${r.digits(7)}-H)`,
        `NO. ${r.int(1, 99)}, JALAN ${r.pick(["PERMAS", "BESAR", "MAWAR"])} ${r.int(1, 12)}, TAMAN DESA, 52100 KUALA LUMPUR, MALAYSIA`,
        "TAX INVOICE",
        `Invoice No: INV-${r.digits(6)}   Invoice Date: ${pad(r.int(1, 28))}/${pad(r.int(1, 12))}/2018   Terms: 30 days`,
        `Bill To: ${r.pick(["SYARIKAT PERNIAGAAN TAN", "KLINIK SRI GOMBAK"])} SDN BHD, LOT 5, JALAN INDUSTRI 3, 47000 SUNGAI BULOH`,
        `1 Maintenance service for the month of ${r.pick(["March", "April"])} 2018, on site, per agreement 2 x 150.00 300.00`,
        "Sub Total 300.00",
        "GST @ 6% 18.00",
        "Total Amount Payable (RM) 318.00",
        "Payment by cheque or bank transfer to Maybank account 5140 1234 5678 within 30 days of the invoice date",
      ];
      expect(classifyDocument([page(lines)], defaultProject).class_id).toBe("invoice");
    }
  });

  test("OCR's stray mark between CHANGE and its amount still reads as change given", () => {
    for (const change of ["Change i 0.10", "CHANGE | 1.50", "CHANGE: 0.30", "change 2.00"]) {
      const lines = ["KEDAI MAJU", "01/02/2018 4:43:17 PM", "TOTAL 4.90", "CASH 5.00", change];
      const traits = structureBonus([page(lines)]).find((b) => b.till)?.why ?? "";
      expect(traits).toContain("change given");
    }
    const terms = ["KEDAI MAJU", "TOTAL 4.90", "CASH 5.00", "Change in 30 days 0.10"];
    expect(structureBonus([page(terms)]).find((b) => b.till)?.why ?? "").not.toContain("change given");
  });

  test("item rows of a quantity times a unit price are a till trait next to a strong one", () => {
    const lines = ["TOKO SERBA ADA", "1X 55.00", "2 @ 4.21 8.42", "TOTAL 63.42", "CASH 70.00"];
    expect(structureBonus([page(lines)]).find((b) => b.till)?.why).toContain("quantity times a unit price");
    // Alone (no cash, no change, not a till roll) they are no receipt.
    const rows = ["2 x 150.00 300.00 consulting services as agreed in the contract of March", "1 x 20.00 20.00 travel"];
    expect(structureBonus([page(rows)]).find((b) => b.till)).toBeUndefined();
  });
});
