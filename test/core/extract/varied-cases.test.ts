/**
 * The general rules behind the varied-set results (varied.test.ts), one small page each: column gaps,
 * OCR text blocks, misreads, accents, distractors and titles.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";
import { normalizeDate, parseAmount } from "../../../src/core/extract/normalize";

type Cell = [text: string, x: number];

/**
 * A page from rows of cells, 30 px per row and 10 px per character. On an OCR page every cell is its own line
 * (OCR returns text blocks), on a text page a row is one line.
 */
function page(rows: Cell[][], ocr = false): Page {
  const words: Word[] = [];
  let block = 0;
  rows.forEach((row, r) => {
    for (const [text, x] of row) {
      let offset = 0;
      for (const part of text.split(" ")) {
        const x1 = x + offset * 10;
        words.push({
          text: part,
          confidence: ocr ? 0.9 : 1,
          bounding_box: [x1, 100 + r * 30, x1 + part.length * 10, 120 + r * 30],
          line: ocr ? block : r,
        });
        offset += part.length + 1;
      }
      block++;
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: ocr ? "scan.png" : "t.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 2400,
      rasterized_height: 3400,
      source_width: 1200,
      source_height: 1700,
      source_unit: "point",
      render_scale: 2,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: ocr ? "ocr" : "text_layer",
    words,
    text: rows.map((r) => r.map(([t]) => t).join(" ")).join("\n"),
    ocr_confidence: ocr ? 0.9 : 1,
  };
}

const values = (p: Page, cls = "invoice") =>
  Object.fromEntries(Object.entries(extractFields([p], cls, defaultProject)).map(([k, f]) => [k, f.value]));

describe("labels and column gaps", () => {
  test("a header row of labels names separate columns: no label runs across the gap, no neighbour disqualifies one", () => {
    const v = values(
      page([
        [["Norvel Print Ltd", 100]],
        [["INVOICE", 100]],
        [
          ["Factuurnr.", 100],
          ["Issue date", 500],
          ["Due by", 900],
        ],
        [
          ["RE-849925", 100],
          ["03/02/2024", 500],
          ["17/02/2024", 900],
        ],
        [
          ["Total", 700],
          ["100.00", 1000],
        ],
      ]),
    );
    expect(v).toMatchObject({
      invoice_number: "RE-849925",
      invoice_date: "2024-02-03",
      due_date: "2024-02-17",
      total_amount: 100,
    });
  });

  test("the customer's VAT ID printed first loses to the vendor's, labelled in the footer", () => {
    const v = values(
      page([
        [["Velquo Conseil SAS", 100]],
        [["FACTURE", 100]],
        [["Votre n° TVA: FR21028717204", 100]],
        [
          ["Total TTC", 700],
          ["120,00 €", 1000],
        ],
        [
          ["IBAN FR76 3000 6000 0112 3456 7890 189", 100],
          ["N° TVA FR63870691593", 900],
        ],
      ]),
    );
    expect(v.vendor_vat_id).toBe("FR63870691593");
    expect(v.iban).toBe("FR7630006000011234567890189");
  });

  test("a zero balance after payment is not the total", () => {
    const v = values(
      page([
        [["INVOICE", 100]],
        [
          ["Total", 700],
          ["132.00", 1000],
        ],
        [
          ["Amount paid", 700],
          ["132.00", 1000],
        ],
        [
          ["Balance due", 700],
          ["0.00", 1000],
        ],
      ]),
    );
    expect(v.total_amount).toBe(132);
  });

  test("an amount is never a document number, even right of the word invoice", () => {
    const v = values(
      page([
        [["Factura", 100]],
        [
          ["Factura nº", 100],
          ["Fecha de factura", 500],
        ],
        [
          ["16216", 100],
          ["9 de abril de 2024", 500],
        ],
        [
          ["Total factura", 700],
          ["7.362,40 €", 1000],
        ],
      ]),
    );
    expect(v.invoice_number).toBe("16216");
    expect(v.total_amount).toBe(7362.4);
  });

  test("a document number printed in digit groups is read whole, a date after it is not", () => {
    expect(values(page([[["INVOICE", 100]], [["Invoice No. 2024 000117", 100]]])).invoice_number).toBe("2024 000117");
    expect(values(page([[["INVOICE", 100]], [["Invoice No. 4711 05.03.2024", 100]]])).invoice_number).toBe("4711");
  });

  test("legal forms: the longest one and names printed in capitals", () => {
    expect(values(page([[["Falquo Logistik GmbH & Co. KG", 100]], [["Rechnung", 100]]])).vendor_name).toBe(
      "Falquo Logistik GmbH & Co. KG",
    );
    expect(
      values(
        page([
          [["BRITEN SUPPLIES LTD", 100]],
          [
            ["TOTAL", 100],
            ["12.00", 400],
          ],
        ]),
        "receipt",
      ).vendor_name,
    ).toBe("BRITEN SUPPLIES LTD");
  });
});

describe("without labels", () => {
  test("a US state-and-ZIP address reads ambiguous numeric dates month-first, even when OCR split the city off", () => {
    expect(
      values(
        page([
          [["Springfield,", 100]],
          [["IL 62704", 100]],
          [["07/10/24 10:00", 100]],
          [
            ["TOTAL", 100],
            ["USD 12.00", 400],
          ],
        ]),
        "receipt",
      ).invoice_date,
    ).toBe("2024-07-10");
    expect(
      values(
        page([
          [["Berlin", 100]],
          [["07/10/24 10:00", 100]],
          [
            ["SUMME", 100],
            ["12,00 EUR", 400],
          ],
        ]),
        "receipt",
      ).invoice_date,
    ).toBe("2024-10-07");
  });

  test("with no total label, the amount printed with its currency or twice wins over a larger stray number", () => {
    const v = values(
      page(
        [
          [["ZENORA TECHNIK GMBH", 100]],
          [["2 x 19,58 20361.26", 100]],
          [["357,33 €", 700]],
          [
            ["KARTENZAHLUNG ****7420", 100],
            ["357,33", 700],
          ],
        ],
        true,
      ),
      "receipt",
    );
    expect(v.total_amount).toBe(357.33);
  });
});

describe("value forms", () => {
  test("two-digit years after a month name, typographic apostrophes in Swiss amounts", () => {
    expect(normalizeDate("5 Mar 24", "dmy")).toBe("2024-03-05");
    expect(normalizeDate("12 May 15:30", "dmy")).toBeNull();
    expect(parseAmount("CHF 1’234.50")).toBe(1234.5);
    expect(
      values(
        page([
          [["RECHNUNG", 100]],
          [
            ["Total", 700],
            ["CHF 1’234.50", 1000],
          ],
        ]),
      ).total_amount,
    ).toBe(1234.5);
  });
});

describe("OCR pages", () => {
  test("a value in a text block of its own on the label's row is read, past a currency column", () => {
    const v = values(
      page(
        [
          [
            ["Sales Tax 8.25%", 700],
            ["USD", 1200],
            ["8.25", 1500],
          ],
          [
            ["Grand Total", 700],
            ["USD", 1200],
            ["108.25", 1500],
          ],
        ],
        true,
      ),
    );
    expect(v).toMatchObject({ tax_amount: 8.25, total_amount: 108.25 });
  });

  test("a misread IBAN country code is repaired only when the checksum then passes", () => {
    const scan = page([[["IBAN 1T60 X054 2811 1010 0000 0123 456", 100]]], true);
    expect(values(scan).iban).toBe("IT60X0542811101000000123456");
    expect(values(page([[["IBAN 1T60 X054 2811 1010 0000 0123 456", 100]]])).iban).toBeNull();
    expect(values(page([[["IBAN 1T61 X054 2811 1010 0000 0123 456", 100]]], true)).iban).toBeNull();
  });

  test("an OCR speck inside a document number is dropped on OCR pages only", () => {
    const rows: Cell[][] = [[["Booking ID", 100]], [["IBZY?2087", 100]]];
    expect(values(page(rows, true)).invoice_number).toBe("IBZY2087");
    expect(values(page(rows)).invoice_number).toBeNull();
  });

  test("accents dropped by OCR and an extra letter in a short label still match", () => {
    const v = values(
      page(
        [
          [["Rechnung", 100]],
          [
            ["Fallig am", 100],
            ["27.02.2023", 500],
          ],
          [
            ["MwsSt. 19%", 700],
            ["19,00", 1200],
          ],
        ],
        true,
      ),
    );
    expect(v).toMatchObject({ due_date: "2023-02-27", tax_amount: 19 });
  });

  test("a real word one letter away from a label is not that label (SUPPLIES is no supplier)", () => {
    const v = values(
      page(
        [
          [["BRITEN SUPPLIES LTD", 100]],
          [["Sales Receipt", 100]],
          [
            ["TOTAL", 100],
            ["12.00", 400],
          ],
        ],
        true,
      ),
      "receipt",
    );
    expect(v.vendor_name).toBe("BRITEN SUPPLIES LTD");
  });
});

describe("classification cues", () => {
  const textPage = (text: string): Page => ({ ...page([]), text, words: [] });

  test("a credit note whose title carries its number beats the invoice vocabulary it shares", () => {
    const c = classifyDocument(
      [
        textPage(
          "Brimar Systems Ltd\nStation Road 131\nBill To\nSofia Bianchi\nSW1A 1AA London\nAccount No.: 199995\nCredit Memo Nr. F2025-780\nInvoice Date Order Date\nDescription Qty Amount\nVAT 20% -12.00\nTotal -72.00\nIBAN GB33BUKB20201555555555",
        ),
      ],
      defaultProject,
    );
    expect(c.class_id).toBe("credit_note");
  });

  test("a till receipt in any language: cash and change with amounts, accents or not", () => {
    for (const text of [
      "KONHAN HANDEL SA\nBon Nr. 7504\nSUMME 32,38 CHF\nBAR 50,00\nRUCKGELD 17,62\nMwSt 8.1% 2,43",
      "LUXTEN SERVIZI SPA\nScontrino n. 20548\nTOTALE 177,66\nCONTANTI 180,00\nRESTO 2,34\nIVA 22% 29,61",
    ]) {
      expect(classifyDocument([textPage(text)], defaultProject).class_id).toBe("receipt");
    }
  });

  test("everyday words shared with receipts and contracts do not make a manual or meeting notes one", () => {
    for (const text of [
      "User manual\nChapter 1 Installation\nConnect the cable to the terminal and enter your PIN.\nPress the power button.",
      "Meeting notes\nThe party agreed to move the deadline. Next term we will review the budget.",
    ]) {
      expect(classifyDocument([textPage(text)], defaultProject).class_id).toBe("other");
    }
  });

  test("a short line that is a table row does not count as a heading: receipts selling contracts stay receipts", () => {
    const c = classifyDocument(
      [
        textPage(
          "QUOHAN TIPOGRAFIA SPA\nVia Roma 3\nScontrino n. 4783\nContratto di manutenzione\n2 x 12,00 24,00\nContratto di manutenzione\n1 x 12,00 12,00\nTOTALE EUR 36,00\nCONTANTI 40,00\nRESTO 4,00",
        ),
      ],
      defaultProject,
    );
    expect(c.class_id).toBe("receipt");
  });
});
