/**
 * Party roles on e-invoice pages, generated case by case (names, languages, text layer or OCR): the sender line
 * over a window address names the seller and the window below it the buyer; a party section of label / value rows
 * ("Verkäufer" over "Firmenname  Acme GmbH  BT-27") gives the row's value, wrapped names included; a label inside an
 * e-mail address is none; an English OCR model's "ii" for "ü" is read back; "UG (haftungsbeschränkt)" is one form.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { legalForm } from "../../../src/core/extract/company";
import { umlautsRead, withoutStrayLetter } from "../../../src/core/extract/ocr-letters";
import { findAmounts } from "../../../src/core/extract/values";
import { Rng } from "../../../fixtures/varied/generator/random";
import type { Page } from "../../../src/core/model";
import { type Cell, page } from "./page-rows";

const SURNAMES = ["Hartmann", "Becker", "Lange", "Brandt", "Vogel", "Lorenz", "Werner", "Neumann"];
const TRADES = ["Haustechnik", "Bürobedarf", "Metallbau", "Verlag", "Logistik", "Seminare"];
const FORMS = ["GmbH", "AG", "KG", "GmbH & Co. KG", "e.K."];
const BUYERS = ["Stadtverwaltung", "Landratsamt", "Gemeindewerke", "Kreiskrankenhaus"];
const TOWNS = ["Kassel", "Erfurt", "Lübeck", "Potsdam", "Göttingen"];

/** Seeded parties: a seller company, a public buyer, their streets and towns. */
function parties(seed: number) {
  const r = new Rng(seed);
  return {
    seller: `${r.pick(SURNAMES)} ${r.pick(TRADES)} ${r.pick(FORMS)}`,
    buyer: `${r.pick(BUYERS)} ${r.pick(TOWNS)}`,
    street: `Hauptstraße ${r.int(1, 99)}`,
    buyerStreet: `Lindenweg ${r.int(1, 99)}`,
    town: `${r.int(10000, 99999)} ${r.pick(TOWNS)}`,
    buyerTown: `${r.int(10000, 99999)} ${r.pick(TOWNS)}`,
    mail: `seller@${r.pick(["email", "post", "mail-service"])}.de`,
  };
}

/** A DIN 5008 letter: letterhead, small sender line over the window, the buyer, information block, totals. */
function letterPage(seed: number, ocr: boolean, sep: string, twoLineWindow: boolean): Page {
  const p = parties(seed);
  const rows: Array<[number, Cell[]]> = [
    [60, [[p.seller, 1100, 34]]],
    // The letterhead's address in smaller type over its contact line: no sender line, its contacts no recipient.
    [110, [[`${p.street} ${sep} ${p.town}`, 1100, 14]]],
    [130, [[`Tel. 0800 123456 ${sep} ${p.mail}`, 1100, 20]]],
    [
      280,
      [
        [`${p.seller} ${sep} ${p.street} ${sep} ${p.town}`, 115, 13],
        ["Rechnungsnummer: RE-2024-0815", 1200],
      ],
    ],
    [
      310,
      [
        [p.buyer, 115, 20],
        ["Rechnungsdatum: 13.04.2024", 1200],
      ],
    ],
  ];
  if (!twoLineWindow)
    rows.push([
      340,
      [
        [p.buyerStreet, 115, 20],
        ["Kundennummer: 4711", 1200],
      ],
    ]);
  rows.push([twoLineWindow ? 340 : 370, [[p.buyerTown, 115, 20]]]);
  rows.push([520, [["Rechnung RE-2024-0815", 115, 28]]]);
  rows.push([
    600,
    [
      ["Summe netto", 1200],
      ["100,00 EUR", 1700],
    ],
  ]);
  rows.push([
    630,
    [
      ["USt 19 %", 1200],
      ["19,00 EUR", 1700],
    ],
  ]);
  rows.push([
    660,
    [
      ["Gesamtbetrag", 1200],
      ["119,00 EUR", 1700],
    ],
  ]);
  return page(rows, ocr);
}

/** An XRechnung visualisation: buyer and seller sections side by side, label / value / BT rows. */
function viewerPage(seed: number, ocr: boolean, english: boolean, wrapSeller: boolean): Page {
  const p = parties(seed);
  const [buyerH, sellerH, nameL, firmL] = english
    ? ["Buyer", "Seller", "Name", "Company name"]
    : ["Käufer", "Verkäufer", "Name", "Firmenname"];
  const words = p.seller.split(" ");
  const [head, tail] = wrapSeller ? [words.slice(0, -1).join(" "), words.slice(-1).join(" ")] : [p.seller, ""];
  const rows: Array<[number, Cell[]]> = [
    [80, [[english ? "Invoice" : "Rechnung", 90, 32]]],
    [
      160,
      [
        [buyerH, 90, 24],
        [sellerH, 1050, 24],
      ],
    ],
    [
      200,
      [
        [nameL, 90],
        [p.buyer, 400],
        ["BT-44", 880, 12],
        [firmL, 1050],
        [head, 1360],
        ["BT-27", 1860, 12],
      ],
    ],
  ];
  if (tail) rows.push([225, [[tail, 1360]]]);
  rows.push([
    260,
    [
      [english ? "Street" : "Straße", 90],
      [p.buyerStreet, 400],
      ["BT-50", 880, 12],
      [english ? "Street" : "Straße", 1050],
      [p.street, 1360],
      ["BT-35", 1860, 12],
    ],
  ]);
  rows.push([
    420,
    [
      [english ? "Invoice total with VAT" : "Gesamtsumme brutto", 90],
      ["119,00 EUR", 700],
    ],
  ]);
  return page(rows, ocr);
}

const CASES = Array.from({ length: 8 }, (_, i) => i + 1);

describe("party roles on e-invoice pages", () => {
  test("the sender line over the window names the seller; the window under it is the buyer (text and OCR, · | -)", () => {
    for (const seed of CASES)
      for (const ocr of [false, true]) {
        const sep = ["·", "|", "-"][seed % 3]!;
        const f = extractFields([letterPage(seed, ocr, sep, seed % 2 === 0)], "invoice", defaultProject);
        const p = parties(seed);
        expect([seed, ocr, f.vendor_name!.value]).toEqual([seed, ocr, p.seller]);
        expect([seed, ocr, f.customer_name!.value]).toEqual([seed, ocr, p.buyer]);
        expect(f.total_amount!.value).toBe(119);
      }
  });

  test("a party section's name row gives the name, a wrapped one whole, without the BT reference", () => {
    for (const seed of CASES)
      for (const ocr of [false, true]) {
        const f = extractFields([viewerPage(seed, ocr, seed % 2 === 1, seed % 3 === 0)], "invoice", defaultProject);
        const p = parties(seed);
        expect([seed, ocr, f.vendor_name!.value]).toEqual([seed, ocr, p.seller]);
        expect([seed, ocr, f.customer_name!.value]).toEqual([seed, ocr, p.buyer]);
      }
  });

  test("'Invoice total without VAT' and 'Summe Umsatzsteuer' label no total; the gross row does", () => {
    for (const [net, tax, gross] of [
      ["Invoice total without VAT", "Invoice total VAT amount", "Invoice total with VAT"],
      ["Gesamtsumme netto", "Summe Umsatzsteuer", "Gesamtsumme brutto"],
    ]) {
      const p = page([
        [60, [["Lange Metallbau GmbH", 100, 34]]],
        [
          200,
          [
            [net!, 100],
            ["64,90 EUR", 900],
          ],
        ],
        [
          230,
          [
            [tax!, 100],
            ["12,33 EUR", 900],
          ],
        ],
        [
          260,
          [
            [gross!, 100],
            ["77,23 EUR", 900],
          ],
        ],
      ]);
      const f = extractFields([p], "invoice", defaultProject);
      expect([net, f.total_amount!.value, f.tax_amount!.value, f.subtotal_amount!.value]).toEqual([
        net,
        77.23,
        12.33,
        64.9,
      ]);
    }
  });

  test("a label inside an e-mail address is no label: 'seller@…' names no vendor", () => {
    for (const seed of CASES) {
      const f = extractFields([letterPage(seed, false, "·", false)], "invoice", defaultProject);
      expect(String(f.vendor_name!.value)).not.toContain(".de");
      expect(f.vendor_name!.reasoning).not.toContain('label "seller"');
    }
  });

  test("an English model's 'ii' for 'ü' is read back inside words; other text is left as it is", () => {
    expect(umlautsRead("Kriiger Logistik GmbH")).toBe("Krüger Logistik GmbH");
    expect(umlautsRead("Amt fiir Statistik Osnabriick")).toBe("Amt für Statistik Osnabrück");
    expect(umlautsRead("MIILLER")).toBe("MÜLLER");
    expect(umlautsRead("Hawaii Shop II")).toBe("Hawaii Shop II");
    expect(withoutStrayLetter("i Gemeindewerke Mannheim")).toBe("Gemeindewerke Mannheim");
    expect(withoutStrayLetter("de Vries Installatie B.V.")).toBe("de Vries Installatie B.V.");
    expect(withoutStrayLetter("e Co. KG")).toBe("e Co. KG");
    const ocr = page(
      [
        [60, [["Kriiger Logistik GmbH", 100, 34]]],
        [110, [["Hauptstraße 5 · 12345 Erfurt", 100]]],
      ],
      true,
    );
    expect(extractFields([ocr], "invoice", defaultProject).vendor_name!.value).toBe("Krüger Logistik GmbH");
  });

  test("a mark OCR glued before a grouped amount is no decimal point: '.1.344,00 HUF' is 1344", () => {
    expect(findAmounts(".1.344,00 HUF")[0]?.value).toBe(1344);
    expect(findAmounts("‘12.829,69 EUR")[0]?.value).toBe(12829.69);
    expect(findAmounts("0.50 EUR")[0]?.value).toBe(0.5);
  });

  test("UG (haftungsbeschränkt) is one legal form, with or without the umlaut", () => {
    expect(legalForm("Vogel Bürobedarf UG (haftungsbeschränkt)")?.[0]).toBe("UG (haftungsbeschränkt)");
    expect(legalForm("Vogel Bürobedarf UG (haftungsbeschrankt)")?.[0]).toBe("UG (haftungsbeschrankt)");
    expect(legalForm("Vogel Bürobedarf UG")?.[0]).toBe("UG");
  });
});
