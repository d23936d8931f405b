/**
 * Party roles, till receipts and arithmetic on hand-made pages (words with boxes, as a text layer gives them):
 * the recipient's block is never the vendor, the issuer comes from a title, a footer or the letterhead, totals
 * reconcile, a headerless table is taken only when its amounts add up, and structure makes a "TAX INVOICE" till
 * receipt a receipt.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { classifyDocument } from "../../../src/core/stages/classify";
import { legalForm } from "../../../src/core/extract/company";
import { normalizeDate } from "../../../src/core/extract/normalize";
import { findAmounts } from "../../../src/core/extract/values";

/** A page from rows of [y, [[text, x], ...]]: 10 px per character, 20 px high lines. */
function page(
  rows: Array<[number, Array<[string, number]>]>,
  size: [number, number] = [2000, 3000],
  pointWidth = 1000,
): Page {
  const words: Word[] = [];
  rows.forEach(([y, cells], line) => {
    for (const [text, x] of cells) {
      let offset = 0;
      for (const part of text.split(" ")) {
        if (part)
          words.push({
            text: part,
            confidence: 1,
            bounding_box: [x + offset * 10, y, x + (offset + part.length) * 10, y + 20],
            line,
          });
        offset += part.length + 1;
      }
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "t.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: size[0],
      rasterized_height: size[1],
      source_width: pointWidth,
      source_height: (pointWidth * size[1]) / size[0],
      source_unit: "point",
      render_scale: size[0] / pointWidth,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "text_layer",
    words,
    text: rows.map(([, cells]) => cells.map(([t]) => t).join(" ")).join("\n"),
    ocr_confidence: 1,
  };
}

describe("party roles", () => {
  test("an ATTN line under 'Bill to' is the customer, never the vendor; the name in the title is the issuer", () => {
    const p = page([
      [100, [["Bill to Address:", 100]]],
      [130, [["ATTN: Harbour Trading Limited", 100]]],
      [160, [["93B Sai Yu Chung", 100]]],
      [190, [["Yuen Long, Hong Kong", 100]]],
      [260, [["Northwind Cloud Services Invoice", 100]]],
      [300, [["Invoice Number: 42183017", 100]]],
      [330, [["Invoice Date: August 3, 2014", 100]]],
      [360, [["TOTAL AMOUNT DUE $4.11", 100]]],
      [400, [["Questions? Visit support.northwind.com", 100]]],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.vendor_name!.value).toBe("Northwind Cloud Services");
    expect(f.vendor_name!.reasoning).toContain("title");
    expect(f.customer_name!.value).toBe("Harbour Trading Limited");
  });

  test("a seller only in the footer's legal lines is the vendor; the window address is the customer", () => {
    const p = page([
      [150, [["Facture", 1200]]],
      [300, [["ALEXINUX", 100]]],
      [330, [["27 rue Henri Rolland", 100]]],
      [360, [["69100 Villeurbanne", 100]]],
      [450, [["Facture n° 2022089083", 100]]],
      [480, [["Date : 28/11/2022", 100]]],
      [
        600,
        [
          ["Annonce légale du 06/12/2022", 100],
          ["45,93 €", 1500],
        ],
      ],
      [
        640,
        [
          ["Total HT", 1200],
          ["45,93 €", 1500],
        ],
      ],
      [
        670,
        [
          ["TVA 20%", 1200],
          ["9,19 €", 1500],
        ],
      ],
      [
        700,
        [
          ["Total TTC", 1200],
          ["55,12 €", 1500],
        ],
      ],
      [2700, [["NETPRESSE", 900]]],
      [2730, [["Siège social : 16 rue Mollien - 92100 BOULOGNE", 600]]],
      [2760, [["Sarl au capital de 10 000€ - RCS Paris B 530 848 134", 600]]],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.vendor_name!.value).toBe("NETPRESSE");
    expect(f.vendor_name!.reasoning).toContain("footer");
    expect(f.customer_name!.value).toBe("ALEXINUX");
  });

  test("seller and buyer side by side under Verkäufer / Käufer: each field takes its own column", () => {
    const p = page([
      [100, [["Rechnung", 100]]],
      [
        200,
        [
          ["Käufer", 100],
          ["Verkäufer", 1100],
        ],
      ],
      [
        230,
        [
          ["Baustoffe Ost GmbH", 100],
          ["Lieferwerk Nord GmbH", 1100],
        ],
      ],
      [
        260,
        [
          ["Hauptstraße 5", 100],
          ["Lindenweg 12", 1100],
        ],
      ],
      [
        290,
        [
          ["10115 Berlin", 100],
          ["80331 München", 1100],
        ],
      ],
      [
        320,
        [
          ["USt-IdNr.: DE111111111", 100],
          ["USt-IdNr.: DE222222222", 1100],
        ],
      ],
      [
        400,
        [
          ["Rechnungsnummer", 100],
          ["RE-7", 1800],
        ],
      ],
      [
        430,
        [
          ["Gesamtbetrag", 100],
          ["119,00 EUR", 1800],
        ],
      ],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.vendor_name!.value).toBe("Lieferwerk Nord GmbH");
    expect(f.customer_name!.value).toBe("Baustoffe Ost GmbH");
    expect(f.vendor_vat_id!.value).toBe("DE222222222");
    expect(f.invoice_number!.value).toBe("RE-7");
    expect(f.total_amount!.value).toBe(119);
  });

  test("legal forms are whole tokens after a name: '(Inc. GST)' and a postcode '1012 AB' name no company", () => {
    expect(legalForm("Total (Inc. GST) 12.00")).toBeNull();
    expect(legalForm("Sarl au capital de 10 000€")).toBeNull();
    expect(legalForm("KEDAI MAJU SDN BHD")?.[0]).toBe("SDN BHD");
    expect(legalForm("Amazon Web Services, Inc.")?.[0]).toBe("Inc.");
  });
});

describe("values and arithmetic", () => {
  test("month names from Intl in every language read; a time of day is never an amount", () => {
    expect(normalizeDate("12 ene 2024")).toBe("2024-01-12");
    expect(normalizeDate("3 dic. 2023")).toBe("2023-12-03");
    expect(normalizeDate("15 ott 2023")).toBe("2023-10-15");
    expect(normalizeDate("4 de março de 2024")).toBe("2024-03-04");
    expect(normalizeDate("15 stycznia 2024")).toBe("2024-01-15");
    expect(findAmounts("12/03/2024 14:35 TOTAL RM48.40").map((a) => [a.value, a.currency])).toEqual([[48.4, "MYR"]]);
  });

  test("a tax label standing before another field's label does not take its amount; the tax is solved from the sums", () => {
    const p = page([
      [100, [["FACTUUR", 100]]],
      [200, [["Factuurnummer: 993548900", 100]]],
      [
        600,
        [
          ["Exclusief BTW", 1000],
          ["€593,36", 1600],
        ],
      ],
      [630, [["€124,61", 1600]]],
      [660, [["BTW 21% — Totaal €717,97", 1000]]],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect([f.subtotal_amount!.value, f.tax_amount!.value, f.total_amount!.value]).toEqual([593.36, 124.61, 717.97]);
    expect(f.tax_amount!.reasoning).toContain("makes subtotal_amount + tax_amount = total_amount");
  });

  test("rows above the totals become line items without a readable header only when they add up", () => {
    const rows = (second: string): Array<[number, Array<[string, number]>]> => [
      [100, [["Facture n° 77", 100]]],
      [300, [["S— one | ru | a", 100]]],
      [
        330,
        [
          ["Annonce du 06/12/2022", 100],
          ["45,93€", 1500],
        ],
      ],
      [
        360,
        [
          ["Justificatif PDF 1", 100],
          ["0,75€", 1300],
          [second, 1500],
        ],
      ],
      [400, [["Total HT: 46,68 €", 1200]]],
      [430, [["TVA 20%: 9,34 €", 1200]]],
      [460, [["Total TTC : 56,02 €", 1200]]],
    ];
    const f = extractFields([page(rows("0,75€"))], "invoice", defaultProject);
    expect(f.line_items!.value).toEqual([
      { description: "Annonce du 06/12/2022", quantity: null, unit_price: null, amount: 45.93 },
      { description: "Justificatif PDF", quantity: 1, unit_price: 0.75, amount: 0.75 },
    ]);
    expect(f.line_items!.reasoning).toContain("add up");
    // Amounts that do not add up to the sums are no table.
    expect(extractFields([page(rows("9,75€"))], "invoice", defaultProject).line_items!.value).toBeNull();
  });
});

describe("classification by structure", () => {
  test("a till roll that prints TAX INVOICE, with change given and the time, is a receipt", () => {
    const lines = [
      "GOLDEN PHARMACY SDN BHD",
      "GST ID: W10-5771-69705397",
      "SIMPLIFIED TAX INVOICE",
      "Bill No: CS88724162",
      "Date: 04/10/2024 Time: 18:03:22",
      "Cashier: RAJ",
      "RICE 5KG 101.37",
      "MILO 1KG 26.78",
      "SUBTOTAL 128.15",
      "SST 6% 7.69",
      "TOTAL RM135.85",
      "CASH 190.00",
      "CHANGE 54.15",
    ];
    const till = page(
      lines.map((t, i) => [60 + i * 40, [[t, 20]]] as [number, Array<[string, number]>]),
      [940, 1360],
      226,
    );
    const c = classifyDocument([till], defaultProject);
    expect(c.class_id).toBe("receipt");
    expect(c.reasoning).toContain("till-receipt traits");
    // The same words on an A4 invoice page without cash and change stay an invoice.
    const a4 = page(
      lines
        .filter((t) => !/CASH|CHANGE|Cashier/.test(t))
        .map((t, i) => [100 + i * 40, [[t, 100]]] as [number, Array<[string, number]>]),
    );
    expect(classifyDocument([a4], defaultProject).class_id).toBe("invoice");
  });
});
