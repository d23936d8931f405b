/**
 * The buyer's window on invoices as accounting software prints them (the ERP-export family of
 * fixtures/einvoice-visual, where 4 of 21 customers were read right from the text layer at first sight, 9 of 21 on
 * scans): the return line sits at the top of the DIN 5008 window, an empty note zone under it (sender-line.ts
 * noteZone); an information block beside the window starts above it with label rows whose numbers look like streets
 * and postcodes (recipient.ts DETAIL_ROW); "N° client" is the customer's number, not a heading (labels.ts); and on
 * scans a speck, a skewed line's tall long words, a colon or a lost separator in the return line
 * (sender-line.ts senderLineName, typeHeight); a name read without its umlauts on one line and with them on another
 * (ocr-letters.ts marksReadElsewhere).
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { pageLines } from "../../../src/core/extract/lines";
import { senderLineName } from "../../../src/core/extract/sender-line";
import { markedWords, marksReadElsewhere } from "../../../src/core/extract/ocr-letters";
import { type Cell, ocrRows, page } from "./page-rows";
import { visualInvoices, visualPdf } from "../../../fixtures/einvoice-visual";
import { convertSource } from "../../../src/core/stages/convert";

const customer = (p: Page) => extractFields([p], "invoice", defaultProject).customer_name?.value;

/** A text-layer invoice: `head` rows (letterhead, info block, window), then a title and totals. */
function textInvoice(head: Array<[number, Cell[]]>): Page {
  return page([
    [100, [["Hoffmann Entsorgung AG", 1300, 26]]],
    ...head,
    [560, [["Rechnung PRG1502112", 114, 24]]],
    [700, [["Summe netto 100,00 EUR", 1200]]],
    [730, [["zzgl. 19 % USt. 19,00 EUR", 1200]]],
    [760, [["Rechnungsbetrag 119,00 EUR", 1200]]],
  ]);
}

describe("the window under a return line, beside an information block", () => {
  test("the address starts past the empty note zone under the return line", () => {
    const p = textInvoice([
      [260, [["Rechnungsnr. PRG1502112", 900, 16]]],
      [278, [["Hoffmann Entsorgung AG · Goethestraße 96 · 12345 Kassel", 114, 13]]],
      [283, [["Rechnungsdatum 24.04.2015", 900, 16]]],
      [306, [["Kundennr. 75545", 900, 16]]],
      [332, [["Landesamt für Statistik Mannheim", 114, 19]]],
      [357, [["12345 Mannheim", 114, 19]]],
    ]);
    expect(customer(p)).toBe("Landesamt für Statistik Mannheim");
  });

  test("an information block's label rows are no address block", () => {
    const p = textInvoice([
      [260, [["Rechnungsnr. PRG1502112", 900, 16]]],
      [283, [["Rechnungsdatum 24.04.2015", 900, 16]]],
      [306, [["Kundennr. 75545", 900, 16]]],
      [329, [["Seite 1 von 2", 900, 16]]],
      [332, [["Landesamt für Statistik Mannheim", 114, 19]]],
      [357, [["Goethestraße 82", 114, 19]]],
      [382, [["12345 Mannheim", 114, 19]]],
    ]);
    expect(customer(p)).toBe("Landesamt für Statistik Mannheim");
  });

  test('"N° client" is the customer\'s number: the row under it is no customer', () => {
    const p = textInvoice([
      [260, [["N° de facture 4711", 900, 16]]],
      [278, [["Hoffmann Entsorgung AG · Goethestraße 96 · 12345 Kassel", 114, 13]]],
      [283, [["N° client 75545", 900, 16]]],
      [306, [["Votre commande 2024-17", 900, 16]]],
      [300, [["Staatliches Bauamt Oldenburg", 114, 19]]],
      [325, [["12345 Oldenburg", 114, 19]]],
    ]);
    expect(customer(p)).toBe("Staatliches Bauamt Oldenburg");
  });
});

/** A scanned invoice (300 DPI boxes) whose return line is `sender`, `between` rows above a two-line window. */
function scan(sender: string, between: Array<[number, number, Array<[string, number]>]> = []): Page {
  return ocrRows([
    [190, 80, [["HOFFMANN", 1850]]],
    [526, 40, [["Rechnungsnr. 123456XX", 1490]]],
    [567, 23, [[sender, 250]]],
    ...between,
    [660, 35, [["Stadtverwaltung Potsdam", 250]]],
    [720, 35, [["12345 Potsdam", 250]]],
    [1100, 50, [["Rechnung 123456XX", 250]]],
    [1500, 35, [["Rechnungsbetrag 336,90 EUR", 1540]]],
  ]);
}

describe("a scanned return line", () => {
  test("a speck read as a line of two letters under it is passed over", () => {
    const p = scan("Hoffmann Haustechnik GmbH - Gartenweg 85 - 12345 Kassel", [[618, 9, [["hi", 290]]]]);
    expect(customer(p)).toBe("Stadtverwaltung Potsdam");
  });

  test("on a skewed scan its long words stand taller than its type: the short ones tell it", () => {
    const p = scan("Schafer Steuerberatung@32 UG (haftungsbeschrankt)@32 - Am Markt@30 5 - 12345 Osnabrück@31");
    expect(customer(p)).toBe("Stadtverwaltung Potsdam");
  });

  test("a separator read as a colon, or lost before the street, still leaves the sender's name", () => {
    const colon = scan("Hoffmann Haustechnik GmbH & Co. KG : Gartenweg 85 - 12345 Kassel");
    const lost = scan("M. Meier Handwerk GbR Hauptstraße 2 - 12345 Musterstadt");
    for (const [p, name] of [
      [colon, "Hoffmann Haustechnik GmbH & Co. KG"],
      [lost, "M. Meier Handwerk GbR"],
    ] as const) {
      const lines = pageLines(p);
      expect(lines.map((l) => senderLineName(l, lines)).filter(Boolean)).toEqual([name]);
      expect(customer(p)).toBe("Stadtverwaltung Potsdam");
    }
  });
});

describe("a name read without its marks on one line and with them on another", () => {
  test("the vendor read as 'Kohler' in the return line takes the umlaut its footer was read with", () => {
    const p = ocrRows([
      [190, 80, [["KÖHLER", 1850]]],
      [567, 23, [["Kohler Steuerberatung KG - Lindenallee 113 - 12345 Kassel", 250]]],
      [660, 35, [["Stadtverwaltung Potsdam", 250]]],
      [720, 35, [["12345 Potsdam", 250]]],
      [1100, 50, [["Rechnung 123456XX", 250]]],
      [1500, 35, [["Rechnungsbetrag 336,90 EUR", 1540]]],
      [3150, 30, [["Köhler Steuerberatung KG", 250]]],
      [3186, 30, [["Amtsgericht Kassel HRB 4711", 860]]],
    ]);
    const fields = extractFields([p], "invoice", defaultProject);
    expect([fields.vendor_name?.value, fields.customer_name?.value]).toEqual([
      "Köhler Steuerberatung KG",
      "Stadtverwaltung Potsdam",
    ]);
  });

  test("letter for letter in the word's own case; words printed nowhere with marks stay as read", () => {
    const marked = markedWords(pageLines(ocrRows([[100, 40, [["SCHÄFER (haftungsbeschränkt) Straße", 100]]]])));
    expect(marksReadElsewhere("Schafer Steuerberatung UG (haftungsbeschrankt)", marked)).toBe(
      "Schäfer Steuerberatung UG (haftungsbeschränkt)",
    );
    expect(marksReadElsewhere("SCHAFER Haustechnik Strasse", marked)).toBe("SCHÄFER Haustechnik Strasse");
    expect(marksReadElsewhere("Muller Logistik", marked)).toBe("Muller Logistik");
  });
});

describe("the tax row of an accounting export", () => {
  test('"plus 19% VAT on …" labels the tax amount (a rate after "zzgl."/"plus" is the tax row, not a qualifier)', async () => {
    // The ERP family's two-page English invoice with a 19 % and a 0 % row (fixtures/einvoice-visual erp.ts).
    const doc = visualInvoices("erp").find((d) => d.id === "ubl-inv-br-de-20-paymentmeans-code59-test")!;
    const converted = await convertSource(
      { index: 0, filename: "erp.pdf", data: await visualPdf(doc), split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      const text = converted.pages.map((p) => p.text).join("\n");
      expect(text).toMatch(/plus 19% VAT/);
      expect(extractFields(converted.pages, "invoice", defaultProject).tax_amount?.value).toBe(doc.truth.tax_amount!);
    } finally {
      await converted.close();
    }
  });
});

describe("a line in larger type over the buyer's address", () => {
  // recipient.ts tagline: a slogan in larger type starts no address block; a name in larger or bold type does.
  const window = (first: string) =>
    textInvoice([
      [300, [[first, 114, 28]]],
      [332, [["Amtsgericht Oldenburg", 114, 19]]],
      [357, [["Kirchplatz 14", 114, 19]]],
      [382, [["12345 Oldenburg", 114, 19]]],
    ]);
  test("a tagline (a sentence) over the name is not the buyer", () => {
    expect(customer(window("Dat betaal ik zelf wel."))).toBe("Amtsgericht Oldenburg");
  });
  test("the buyer's name in larger type over its street is the buyer", () => {
    const p = textInvoice([
      [332, [["Amtsgericht Oldenburg", 114, 28]]],
      [364, [["Kirchplatz 14", 114, 19]]],
      [389, [["12345 Oldenburg", 114, 19]]],
    ]);
    expect(customer(p)).toBe("Amtsgericht Oldenburg");
  });
});
