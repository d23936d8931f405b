/**
 * Due-date labels of the default project that stand alone: "Fällig" (as "due"), "fällig zum", "zahlbar am",
 * "payable le", "à payer le". Generated invoices in German and French, the label beside or right of its date, as a
 * text layer and as OCR lines (a scan's rows), each checked against the same invoice without the label (no due date:
 * the date is the label's, not found by other means). The amount line "Fälliger Betrag" is no due-date label.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page } from "./page-rows";

const LABELS: Array<[label: string, date: string, iso: string]> = [
  ["Fällig :", "13.04.2018", "2018-04-13"],
  ["Fällig", "30.09.2020", "2020-09-30"],
  ["fällig zum", "04.02.2021", "2021-02-04"],
  ["Zahlbar am", "06.10.2024", "2024-10-06"],
  ["Payable le", "14/03/2019", "2019-03-14"],
  ["À payer le", "19/10/2022", "2022-10-19"],
];

/** An invoice whose due-date row is `label` with `date` at `gap` characters' distance (a column far right). */
function invoice(label: string | null, date: string, gap: number, ocr: boolean) {
  const french = /payer|payable/i.test(label ?? "");
  const rows: Array<[number, Cell[]]> = [
    [100, [[french ? "FACTURE" : "RECHNUNG", 100, 40]]],
    [200, [[french ? "Numéro : FA-2024-88" : "Rechnungsnummer: RE-2024-88", 100]]],
    [240, [[french ? "Date : 01/02/2018" : "Rechnungsdatum: 01.02.2018", 100]]],
    [320, [["Pos. Bezeichnung Menge Betrag", 100]]],
    [360, [["1 Beratung 2 200,00", 100]]],
    [440, [[french ? "Total TTC 238,00 EUR" : "Gesamtbetrag 238,00 EUR", 100]]],
  ];
  if (label)
    rows.push([
      520,
      [
        [label, 100],
        [date, 100 + (label.length + gap) * 10],
      ],
    ]);
  else rows.push([520, [[`Bemerkung ${date.replace(/\D/g, "")}`, 100]]]);
  rows.push([600, [["Fälliger Betrag 238,00 EUR", 100]]]);
  return extractFields([page(rows, ocr)], "invoice", defaultProject);
}

describe("due-date labels that stand alone", () => {
  for (const ocr of [false, true])
    for (const [label, date, iso] of LABELS)
      for (const gap of [1, 30])
        test(`${ocr ? "OCR" : "text"}: "${label} ${date}" (${gap} characters apart)`, () => {
          expect(invoice(label, date, gap, ocr).due_date?.value).toBe(iso);
          expect(invoice(null, date, gap, ocr).due_date?.value ?? null).toBeNull();
        });

  test('"Fälliger Betrag" (the amount due) is no due-date label', () => {
    const f = invoice(null, "13.04.2018", 1, false);
    expect(f.due_date?.value ?? null).toBeNull();
    expect(f.total_amount?.value).toBe(238);
  });
});

describe("a due-date label with one short word misread by OCR", () => {
  // As fixtures/smallbiz's 200-DPI scans read them: "Due Date" as "Dye Date", "Due by" as "Bue by".
  const rows = (label: string): Array<[number, Cell[]]> => [
    [100, [["INVOICE", 100, 40]]],
    [
      200,
      [
        ["Invoice Date", 100],
        ["02/02/2024", 500],
      ],
    ],
    [
      240,
      [
        [label, 100],
        ["09/02/2024", 500],
      ],
    ],
    [440, [["Total £6,473.81", 100]]],
  ];
  const due = (label: string, ocr: boolean) =>
    extractFields([page(rows(label), ocr)], "invoice", defaultProject).due_date?.value ?? null;

  test("OCR lines: 'Dye Date' and 'Bue by' are the due date's labels; a short word two characters off is none", () => {
    expect(due("Dye Date :", true)).toBe("2024-02-09");
    expect(due("Bue by", true)).toBe("2024-02-09");
    expect(due("One Date", true)).toBeNull();
    expect(due("Bye bye", true)).toBeNull();
  });
});
