/**
 * The window address under a sender line on a scan (party-blocks.ts senderLineName, recipient.ts windowUnder), as
 * OCR boxes it: one word of the 6.5 pt sender line may take in a speck of grain and stand twice its type's height
 * ("Marktplatz" 41 px beside its other words' 19-21 px), and a speck between the sender line and the window may be
 * read as a line of its own (";"). Seen on the generated letterhead invoices scanned at 200 DPI: the customer came back
 * empty, or as the letterhead's first line. Pages are made word by word, with the boxes OCR gave there.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { ocrRows as ocrPage } from "./page-rows";
import { extractFields } from "../../../src/core/stages/extract";
import { pageLines } from "../../../src/core/extract/lines";
import { issuerCandidates } from "../../../src/core/extract/parties";

/** A letterhead invoice whose sender line is `sender` (20 px type), with `between` lines above the window. */
function invoice(sender: string, between: Array<[number, number, Array<[string, number]>]>): Page {
  return ocrPage([
    [200, 55, [["Betriebsstätte", 1750]]],
    [300, 30, [["Am Marktplatz 32 - 12345 Heilbronn", 1700]]],
    [567, 20, [[sender, 250]]],
    ...between,
    [630, 31, [["Kunde 1", 250]]],
    [685, 38, [["Mühlenweg 32", 250]]],
    [740, 38, [["12345 Würzburg", 250]]],
    [600, 30, [["Rechnungsnummer: 1234567890", 1510]]],
    [1055, 60, [["Rechnung 1234567890", 250]]],
    [1420, 35, [["Summe netto 300,00 EUR", 1510]]],
    [1470, 35, [["USt 19 % 57,00 EUR", 1510]]],
    [1520, 35, [["Gesamtbetrag 357,00 EUR", 1510]]],
  ]);
}

describe("the window address under a scanned sender line", () => {
  test("a sender-line word boxed with a speck twice its height leaves the line a sender line", () => {
    const page = invoice("Betriebsstätte - Am Marktplatz@41 32 - 12345 Heilbronn", []);
    expect(extractFields([page], "invoice", defaultProject).customer_name?.value).toBe("Kunde 1");
  });

  test("a speck read as a line between the sender line and the window is passed over", () => {
    const page = invoice("Betriebsstätte - Am Marktplatz 32 - 12345 Heilbronn", [[602, 3, [[";", 275]]]]);
    expect(extractFields([page], "invoice", defaultProject).customer_name?.value).toBe("Kunde 1");
  });
});

describe("one company read twice on a scan", () => {
  test("a candidate whose legal form OCR misspelt takes the spelling read elsewhere on the page", () => {
    const page = ocrPage([
      [200, 55, [["Schäfer Haustechnik e.K.", 1500]]],
      [320, 30, [["Bahnhofstraße 119 - 12345 Würzburg", 1740]]],
      [567, 20, [["Schäfer Haustechnik e.K. - Bahnhofstraße 119 - 12345 Würzburg", 290]]],
      [630, 31, [["Gemeindewerke Göttingen", 290]]],
      [685, 38, [["Mühlenweg 46", 290]]],
      [740, 38, [["12345 Göttingen", 290]]],
      [1065, 60, [["Rechnung 123456XX", 280]]],
      [1500, 35, [["Gesamtbetrag 336,90 EUR", 1540]]],
      [3131, 40, [["Schäfer Haustechnik eK.", 245]]],
      [3186, 30, [["Bahnhofstraße 119", 244]]],
      [3225, 30, [["12345 Würzburg", 245]]],
      [3262, 30, [["seller@seller.com", 242]]],
      [
        3153,
        40,
        [
          ["Bankverbindung", 861],
          ["Amtsgericht Würzburg HRB 31676", 1500],
        ],
      ],
      [3199, 30, [["IBAN: DE79 0000 0000 1234 5678 90", 861]]],
    ]);
    const values = issuerCandidates(pageLines(page)).map((c) => c.value);
    expect(values).toContain("Schäfer Haustechnik e.K.");
    expect(values).not.toContain("Schäfer Haustechnik eK.");
  });
});
