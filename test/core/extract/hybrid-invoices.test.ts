/**
 * ZUGFeRD / Factur-X invoices as their producers print them (fixtures/einvoice-visual hybrid family, measured before
 * any change for it: text customer 15/21, scans 13/21): a craftsman's window with "Firma" over the buyer's name (the
 * DIN 5008 form of address), also with the information block beside it on the same line. Generated pages.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page } from "./page-rows";

type Rows = Array<[number, Cell[]]>;
const fields = (rows: Rows, ocr = false) => {
  const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
  return (k: string) => f[k]?.value ?? null;
};

/** A craftsman's letterhead, sender line and window; `beside` the information block's cells right of the window. */
const letterhead = (form: string, beside: Cell[][] = []): Rows => [
  [80, [["Zimmermann Gebäudereinigung AG", 300, 30]]],
  [120, [["Dachdeckerei · Spenglerei", 420, 14]]],
  [260, [["Zimmermann Gebäudereinigung AG · Hauptstraße 94 · 12345 Freiburg im Breisgau", 100, 10]]],
  [300, [[form, 100], ...(beside[0] ?? [])]],
  [325, [["Landesamt für Statistik Heilbronn", 100], ...(beside[1] ?? [])]],
  [350, [["Schillerstraße 73", 100], ...(beside[2] ?? [])]],
  [375, [["12345 Heilbronn", 100]]],
  [480, [["Rechnung Nr. 123456XX", 100, 28]]],
  [520, [["Sehr geehrte Damen und Herren,", 100]]],
  [
    600,
    [
      ["Nettobetrag", 560],
      ["314,86 €", 900],
    ],
  ],
  [
    625,
    [
      ["zzgl. 7 % MwSt. auf 314,86", 560],
      ["22,04 €", 900],
    ],
  ],
  [
    650,
    [
      ["Rechnungsbetrag", 560],
      ["336,90 €", 900],
    ],
  ],
  [700, [["Mit freundlichen Grüßen", 100]]],
];

describe("a window's form of address", () => {
  test("'Firma' over the buyer's name is no name: the line under it is", () => {
    for (const ocr of [false, true]) {
      const v = fields(letterhead("Firma"), ocr);
      expect([v("customer_name"), v("vendor_name")]).toEqual([
        "Landesamt für Statistik Heilbronn",
        "Zimmermann Gebäudereinigung AG",
      ]);
    }
    expect(fields(letterhead("Herrn"))("customer_name")).toBe("Landesamt für Statistik Heilbronn");
  });

  test("also with the information block's label and date beside it on the same line", () => {
    const beside: Cell[][] = [
      [
        ["Rechnungsdatum", 620],
        ["13.04.2018", 800],
      ],
      [
        ["Leistungsdatum", 620],
        ["13.04.2018", 800],
      ],
      [
        ["Kunden-Nr.", 620],
        ["93683", 800],
      ],
    ];
    expect(fields(letterhead("Firma", beside))("customer_name")).toBe("Landesamt für Statistik Heilbronn");
  });
});
