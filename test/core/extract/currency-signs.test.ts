/**
 * OCR models confuse € and £ (the German model read a scanned "€" as "£" on two of 21 SaaS invoices): a sign printed
 * with the total that the rest of the document contradicts is read as the other one, on OCR'd pages only.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page } from "./page-rows";

function invoice(signs: { subtotal: string; tax: string; total: string; due: string }, vatId: string, ocr: boolean) {
  const rows: Array<[number, Cell[]]> = [
    [100, [["Muster GmbH", 100, 30]]],
    [160, [[`USt-IdNr. ${vatId}`, 100]]],
    [260, [["Rechnung Nr. 4711", 100]]],
    [300, [["Datum 12.03.2024", 100]]],
    [
      600,
      [
        ["Zwischensumme", 1000],
        [`${signs.subtotal}44.682,01`, 1500],
      ],
    ],
    [
      640,
      [
        ["MwSt. (19 %)", 1000],
        [`${signs.tax}8.489,58`, 1500],
      ],
    ],
    [
      680,
      [
        ["Summe", 1000],
        [`${signs.total}53.171,59`, 1500],
      ],
    ],
    [
      720,
      [
        ["Offener Betrag", 1000],
        [`${signs.due}53.171,59`, 1500],
      ],
    ],
  ];
  return extractFields([page(rows, ocr)], "invoice", defaultProject).currency;
}

test("a £ with the total on an OCR'd page whose other amounts print € is the euro", () => {
  // More € than £ elsewhere.
  expect(invoice({ subtotal: "€", tax: "€", total: "£", due: "€" }, "DE948298356", true)?.value).toBe("EUR");
  // As many of each: the German VAT ID decides.
  expect(invoice({ subtotal: "£", tax: "€", total: "£", due: "€" }, "DE948298356", true)?.value).toBe("EUR");
});

test("the sign printed stands when the document agrees with it, names no country, or is a text layer", () => {
  expect(invoice({ subtotal: "£", tax: "£", total: "£", due: "£" }, "DE948298356", true)?.value).toBe("GBP");
  expect(invoice({ subtotal: "£", tax: "€", total: "£", due: "€" }, "GB123456789", true)?.value).toBe("GBP");
  expect(invoice({ subtotal: "€", tax: "€", total: "£", due: "€" }, "DE948298356", false)?.value).toBe("GBP");
});

/** A Singapore invoice whose amounts print no currency, with `mark` alone on a line over its table. */
function lonelySign(mark: string, ocr: boolean, address = "Blk 645 Ang Mo Kio Ave 3, Singapore 369108") {
  const rows: Array<[number, Cell[]]> = [
    [100, [["Raj's Property Maintenance", 100, 30]]],
    [160, [[address, 100]]],
    [260, [["Invoice # 55", 100]]],
    [300, [["Date 02 Aug 2024", 100]]],
    [400, [[mark, 100]]],
    [
      600,
      [
        ["Total", 1000],
        ["2,874.04", 1500],
      ],
    ],
  ];
  return extractFields([page(rows, ocr)], "invoice", defaultProject).currency;
}

test("a sign alone on an OCR'd line (a mark read from a logo or a box) yields to the country the document names", () => {
  // "S$" in a logo read as "¥" over a Singapore invoice's table.
  expect(lonelySign("¥", true)?.value).toBe("SGD");
  // On a text layer the sign is printed: it counts.
  expect(lonelySign("¥", false)?.value).toBe("JPY");
  // Nothing else names a currency or a country: the lone sign is all there is.
  expect(lonelySign("¥", true, "Ang Mo Kio Ave 3")?.value).toBe("JPY");
  // A sign beside words is a mention, not a mark.
  expect(lonelySign("Amounts in ¥", true)?.value).toBe("JPY");
});
