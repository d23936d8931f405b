/**
 * Party roles in layouts beyond the DIN letter, generated case by case (names, languages, text layer or OCR lines):
 * "From" and "Bill to" side by side with the seller named only in the logo line and the footer (OCR joins the two
 * columns into one line, may lose the space in "BILL TO" and read marks in the gap); a ship-to block beside the
 * bill-to block; a party label that is a word of a company name ("Test Seller Inc."); a title joined with the
 * letterhead beside it on one line; "UG (haftungsbeschränkt)" with a misread umlaut.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { legalForm } from "../../../src/core/extract/company";
import { withoutTrailingMark } from "../../../src/core/extract/ocr-letters";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const SURNAMES = ["Hartmann", "Becker", "Lange", "Brandt", "Vogel", "Lorenz", "Werner", "Neumann"];
const TRADES = ["Haustechnik", "Cloud Services", "Metallbau", "Analytics", "Logistik", "Software"];
const FORMS = ["GmbH", "AG", "KG", "Ltd", "Inc.", "SAS"];
const BUYERS = ["Stadtverwaltung", "Landratsamt", "Northwind Traders", "Kreiskrankenhaus", "Contoso Retail"];
const TOWNS = ["Kassel", "Erfurt", "Leeds", "Potsdam", "Lyon"];

function parties(seed: number) {
  const r = new Rng(seed);
  return {
    r,
    seller: `${r.pick(SURNAMES)} ${r.pick(TRADES)} ${r.pick(FORMS)}`,
    buyer: `${r.pick(BUYERS)} ${r.pick(TOWNS)}`,
    shipTo: `${r.pick(["Warehouse", "Lager", "Entrepôt"])} ${r.pick(TOWNS)}`,
    street: `Hauptstraße ${r.int(1, 99)}`,
    buyerStreet: `Lindenweg ${r.int(1, 99)}`,
    town: `${r.int(10000, 99999)} ${r.pick(TOWNS)}`,
    buyerTown: `${r.int(10000, 99999)} ${r.pick(TOWNS)}`,
  };
}

const HEADINGS: Array<[from: string, billTo: string]> = [
  ["FROM", "BILL TO"],
  ["From", "Bill to"],
  ["VON", "RECHNUNG AN"],
  ["Von", "Rechnung an"],
  ["Seller", "Invoice to"],
  ["FROM ©", "+ BILLTO"],
];

/** A SaaS invoice: logo line, From (street first: no name) beside Bill to, totals, bank block, footer. */
function saasPage(seed: number, ocr: boolean): { page: Page; seller: string; buyer: string } {
  const p = parties(seed);
  const [from, billTo] = HEADINGS[seed % HEADINGS.length]!;
  const rows: Array<[number, Cell[]]> = [
    [
      60,
      [
        [p.seller, 100, 30],
        ["INVOICE", 1600, 40],
      ],
    ],
    [130, [[`Invoice # INV-${p.r.int(1000, 9999)}`, 1400]]],
    [160, [["Date issued March 3, 2024", 1400]]],
    [
      320,
      [
        [from, 100, 16],
        [billTo, 1000, 16],
      ],
    ],
    [
      350,
      [
        [p.street, 100],
        [p.buyer, 1000],
      ],
    ],
    [
      380,
      [
        [p.town, 100],
        [p.buyerStreet, 1000],
      ],
    ],
    [
      410,
      [
        ["billing@cloud.example", 100],
        [p.buyerTown, 1000],
      ],
    ],
    [
      800,
      [
        ["Subtotal", 1300],
        ["€100.00", 1700],
      ],
    ],
    [
      830,
      [
        ["VAT (19%)", 1300],
        ["€19.00", 1700],
      ],
    ],
    [
      860,
      [
        ["Amount due", 1300],
        ["€119.00", 1700],
      ],
    ],
    [
      1000,
      [
        ["Account name", 100],
        [p.seller, 400],
      ],
    ],
    [
      1030,
      [
        ["IBAN", 100],
        ["DE89 3704 0044 0532 0130 00", 400],
      ],
    ],
    [2700, [[`${p.seller} · ${p.street} · ${p.town}`, 600, 14]]],
  ];
  return { page: page(rows, ocr), seller: p.seller, buyer: p.buyer };
}

const fieldsOf = (pg: Page) => extractFields([pg], "invoice", defaultProject);

describe("From and Bill to side by side, the seller named only in the logo line and the footer", () => {
  for (const ocr of [false, true])
    test(`${ocr ? "OCR lines" : "text layer"}: 18 generated invoices, vendor and customer in their roles`, () => {
      const misses: string[] = [];
      for (let seed = 1; seed <= 18; seed++) {
        const { page: pg, seller, buyer } = saasPage(seed, ocr);
        const f = fieldsOf(pg);
        if (f.vendor_name?.value !== seller) misses.push(`${seed} vendor ${JSON.stringify(f.vendor_name?.value)}`);
        if (f.customer_name?.value !== buyer) misses.push(`${seed} customer ${JSON.stringify(f.customer_name?.value)}`);
      }
      // Before: the customer was the "FROM"/"VON" heading or the seller's street block on 8 of 18.
      expect(misses).toEqual([]);
    });
});

describe("a ship-to block beside the bill-to block", () => {
  const PAIRS: Array<[string, string]> = [
    ["Bill to", "Ship to"],
    ["Facturé à", "Livré à"],
    ["Rechnungsempfänger", "Lieferadresse"],
    ["Invoice to", "Deliver to"],
  ];
  for (const ocr of [false, true])
    test(`${ocr ? "OCR lines" : "text layer"}: the customer is the billed party, never the delivery address`, () => {
      for (let seed = 1; seed <= 8; seed++) {
        const p = parties(100 + seed);
        const [bill, ship] = PAIRS[seed % PAIRS.length]!;
        // The ship-to block first in reading order (left) on half of them.
        const [bx, sx] = seed % 2 ? [100, 1000] : [1000, 100];
        const rows: Array<[number, Cell[]]> = [
          [60, [[p.seller, 1100, 30]]],
          [100, [[p.street, 1100]]],
          [
            300,
            [
              [ship, sx, 16],
              [bill, bx, 16],
            ],
          ],
          [
            330,
            [
              [p.shipTo, sx],
              [p.buyer, bx],
            ],
          ],
          [
            360,
            [
              [p.buyerStreet, sx],
              [p.buyerStreet, bx],
            ],
          ],
          [
            390,
            [
              [p.buyerTown, sx],
              [p.buyerTown, bx],
            ],
          ],
        ].map(([y, cells]) => [y as number, (cells as Cell[]).slice().sort((a, b) => a[1] - b[1])]);
        const f = fieldsOf(page(rows, ocr));
        expect({ seed, customer: f.customer_name?.value }).toEqual({ seed, customer: p.buyer });
      }
    });
});

describe("a party label inside a company name labels nothing", () => {
  for (const ocr of [false, true])
    test(`${ocr ? "OCR lines" : "text layer"}: "Test Seller Inc." is the vendor, "Prime Buyer GmbH" the customer`, () => {
      for (const [seller, buyer] of [
        ["Test Seller Inc.", "Prime Buyer GmbH"],
        ["Global Vendor Ltd", "Acme Customer AG"],
        ["Nordic Supplier AB", "Test Buyer GmbH"],
      ]) {
        const rows: Array<[number, Cell[]]> = [
          [60, [[seller, 1100, 30]]],
          [100, [["Test Street 1", 1100]]],
          [130, [["12345 Test City", 1100]]],
          [300, [["Invoice to", 100, 16]]],
          [330, [[buyer, 100]]],
          [360, [["Main Road 7", 100]]],
          [390, [["98765 Other City", 100]]],
        ];
        const f = fieldsOf(page(rows, ocr));
        expect([f.vendor_name?.value, f.customer_name?.value]).toEqual([seller, buyer]);
      }
    });
});

test("a title joined with the letterhead beside it on one line: the letterhead cell is the vendor", () => {
  for (const [title, name] of [
    ["FACTURE", "Betriebsstätte Nord"],
    ["RECHNUNG", "Atelier Sonnenschein"],
    ["INVOICE", "Blue Harbour Studio"],
  ]) {
    const rows: Array<[number, Cell[]]> = [
      [
        60,
        [
          [title, 100, 40],
          [name, 1100, 24],
        ],
      ],
      [100, [["Rue de la Paix 3", 1100]]],
      [130, [["75002 Paris", 1100]]],
    ];
    expect(fieldsOf(page(rows, false)).vendor_name?.value).toBe(name);
  }
});

test('"UG (haftungsbeschränkt)" is one legal form, its umlaut read right, plain or misread by OCR', () => {
  for (const form of ["UG (haftungsbeschränkt)", "UG (haftungsbeschrankt)", "UG (haftungsbeschrénkt)"])
    expect(legalForm(`Vogel Elektrotechnik ${form}`)?.[0]).toBe(form);
});

test("a document number in digit groups stops at a column gap: the seller's postcode beside it is no part of it", () => {
  for (const ocr of [false, true])
    for (const [label, number] of [
      ["Facture n°", "3009000003"],
      ["Invoice No.", "2024 000117"],
      ["Rechnung Nr.", "12345"],
    ]) {
      const rows: Array<[number, Cell[]]> = [
        [60, [["Muster GmbH", 1400, 24]]],
        [
          100,
          [
            [`${label} ${number}`, 100],
            ["12345 Musterdorf", 1400],
          ],
        ],
      ];
      const f = fieldsOf(page(rows, ocr));
      expect({ ocr, number: f.invoice_number?.value }).toEqual({ ocr, number });
    }
});

test("a dot OCR read after a name's last long word is dropped; an abbreviation keeps its dot", () => {
  expect(withoutTrailingMark("Landesamt fur Statistik Mannheim.")).toBe("Landesamt fur Statistik Mannheim");
  expect(withoutTrailingMark("Gemeindewerke Kassel ,")).toBe("Gemeindewerke Kassel");
  for (const kept of ["Acme Inc.", "Müller Bros.", "Schäfer Haustechnik e.K.", "Northwind Ltd.", "ACME CORPORATION."])
    expect(withoutTrailingMark(kept)).toBe(kept);
  const rows: Array<[number, Cell[]]> = [
    [60, [["Lorenz Entsorgung KG", 1100, 30]]],
    [300, [["Bill to", 100, 16]]],
    [330, [["Landesamt fur Statistik Mannheim.", 100]]],
    [360, [["Lindenweg 4", 100]]],
    [390, [["68159 Mannheim", 100]]],
  ];
  expect(fieldsOf(page(rows, true)).customer_name?.value).toBe("Landesamt fur Statistik Mannheim");
  expect(fieldsOf(page(rows, false)).customer_name?.value).toBe("Landesamt fur Statistik Mannheim.");
});

test('a title OCR read as a buyer heading ("Facture a n° 1234567"): the label row under it is no customer', () => {
  const rows: Array<[number, Cell[]]> = [
    [60, [["Schäfer Steuerberatung UG", 1100, 30]]],
    [110, [["Facture a n° 1234567", 100]]],
    [140, [["Date : 13/04/2018", 100]]],
    [300, [["Facturé à", 100, 16]]],
    [330, [["Landesamt für Statistik Osnabrück", 100]]],
    [360, [["98765 Osnabrück", 100]]],
  ];
  for (const ocr of [false, true])
    expect(fieldsOf(page(rows, ocr)).customer_name?.value).toBe("Landesamt für Statistik Osnabrück");
});
