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

describe("an Austrian invoice as OCR reads it", () => {
  test("a due date whose year OCR set a space after the month's dot ('fällig am 13.04. 2018')", () => {
    const rows: Rows = [
      [
        80,
        [
          ["Lorenz Elektrotechnik GmbH & Co. KG", 100, 30],
          ["UID-Nr.: ATU64769486", 700, 16],
        ],
      ],
      [
        260,
        [
          ["Gemeindewerke Freiburg im Breisgau", 100],
          ["Rechnungsnummer:", 620],
          ["1234567", 850],
        ],
      ],
      [
        285,
        [
          ["Kirchplatz 83", 100],
          ["Rechnungsdatum:", 620],
          ["13. April 2018", 850],
        ],
      ],
      [
        310,
        [
          ["98765 Freiburg im Breisgau", 100],
          ["Lieferdatum:", 620],
          ["13.04.2018", 850],
        ],
      ],
      [400, [["RECHNUNG", 100, 32]]],
      [
        600,
        [
          ["Summe netto", 560],
          ["EUR 10.781,22", 850],
        ],
      ],
      [
        625,
        [
          ["zzgl. 19 % USt.", 560],
          ["EUR 2.048,44", 850],
        ],
      ],
      [
        650,
        [
          ["Gesamtsumme", 560],
          ["EUR 12.829,66", 850],
        ],
      ],
      [700, [["Zahlungsziel: fällig am 13.04. 2018", 100]]],
    ];
    const v = fields(rows, true);
    expect([v("due_date"), v("invoice_date"), v("total_amount")]).toEqual(["2018-04-13", "2018-04-13", 12829.66]);
  });
});
