/**
 * The due date stated in a payment sentence, as accounting software prints its terms (extract/payment-deadline.ts):
 * no "due date" label, the date after "bis zum" / "by" / "au plus tard le" in a sentence asking for payment, maybe
 * wrapped onto the next line. Seen on the ERP-export family of fixtures/einvoice-visual: 1 of 13 due dates found
 * before (text and scans). A cash-discount date, a period's end and a date with no payment word are no due date.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page } from "./page-rows";

/** An invoice whose terms are `terms` (one row each, 9 px type under 20 px headings), with date and totals. */
function dueOf(terms: string[], ocr = false): unknown {
  const rows: Array<[number, Cell[]]> = [
    [100, [["Muster Haustechnik GmbH", 100, 30]]],
    [
      200,
      [
        ["Rechnung Nr. RE-2024-117", 100],
        ["Datum 02.05.2024", 1200],
      ],
    ],
    [300, [["Summe netto 100,00 EUR", 1200]]],
    [330, [["zzgl. 19 % USt. 19,00 EUR", 1200]]],
    [360, [["Rechnungsbetrag 119,00 EUR", 1200]]],
    ...terms.map((t, i): [number, Cell[]] => [450 + i * 24, [[t, 100]]]),
  ];
  return extractFields([page(rows, ocr)], "invoice", defaultProject).due_date?.value ?? null;
}

describe("the due date in a payment sentence", () => {
  test("German, English and French sentences holding the amount and the date", () => {
    expect(dueOf(["Bitte überweisen Sie den Rechnungsbetrag von 119,00 EUR bis zum 16.05.2024 ohne Abzug."])).toBe(
      "2024-05-16",
    );
    expect(dueOf(["Please transfer the invoice amount of EUR 119.00 by 16/05/2024 without deduction."])).toBe(
      "2024-05-16",
    );
    expect(dueOf(["Merci de régler la somme de 119,00 EUR au plus tard le 16/05/2024 par virement."])).toBe(
      "2024-05-16",
    );
    expect(dueOf(["Den Betrag von 119,00 EUR erstatten wir Ihnen bis zum 16.05.2024 auf Ihr Konto."])).toBe(
      "2024-05-16",
    );
  });

  test("a sentence wrapped between its deadline phrase and the date, and on OCR lines", () => {
    expect(dueOf(["Bitte zahlen Sie den Rechnungsbetrag von 119,00 EUR spätestens am", "16.05.2024 ohne Abzug."])).toBe(
      "2024-05-16",
    );
    expect(dueOf(["Bitte überweisen Sie den Betrag von 119,00 EUR bis zum 16.05.2024 ohne Abzug."], true)).toBe(
      "2024-05-16",
    );
    // A speck read as a colon after the phrase.
    expect(dueOf(["Bitte überweisen Sie den Betrag von 1.395, 00 EUR bis zum: 19.10.2022 ohne Abzug"], true)).toBe(
      "2022-10-19",
    );
  });

  test("a cash-discount date, a period and a date with no payment word are no due date", () => {
    expect(dueOf(["Bei Zahlung bis zum 09.05.2024 gewähren wir 2 % Skonto."])).toBeNull();
    expect(dueOf(["Leistungszeitraum vom 01.04.2024 bis 30.04.2024."])).toBeNull();
    expect(dueOf(["Die Ware bleibt bis zum 16.05.2024 unser Eigentum."])).toBeNull();
    expect(dueOf(["Vielen Dank für Ihre Zahlung. Angebot gültig bis zum 16.05.2024."])).toBeNull();
  });

  test("a labelled due date wins over the sentence", () => {
    expect(
      dueOf(["Fällig am: 20.05.2024", "Bitte überweisen Sie den Betrag von 119,00 EUR bis zum 16.05.2024 ohne Abzug."]),
    ).toBe("2024-05-20");
  });
});
