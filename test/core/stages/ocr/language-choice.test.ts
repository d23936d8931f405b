/**
 * Zero-configuration OCR languages (stages/ocr/language-choice.ts): a page is read in English first and again with
 * its own language when its words say so; later pages of the same file are read with it at once; an English page is
 * read once; a project's `ocr.languages` wins. Pages are drawn from text with umlauts and accents in the
 * repository's font (Liberation Sans as pdfjs-dist ships it) and read by the real engines; passes are counted by the
 * languages each recognition asked for, not by time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { guessLanguage } from "../../../../src/core/engines/ocr/language-guess.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { OCR_TIMEOUT } from "../../engines/ocr/helpers.ts";
import { counted, source } from "./language-pages.ts";

const GERMAN = [
  "Schäfer Haustechnik GmbH",
  "Müllerstraße 12 · 80331 München",
  "Rechnung Nr. 2024-117",
  "Rechnungsdatum: 14.03.2024",
  "Kunde: Bäckerei Köhler, Große Straße 5",
  "Pos. Bezeichnung Menge Einzelpreis Betrag",
  "1 Wartung der Heizungsanlage 1 450,00 450,00",
  "Summe netto 450,00 EUR",
  "Umsatzsteuer 19 % 85,50 EUR",
  "Gesamtbetrag 535,50 EUR",
  "Zahlbar innerhalb von 14 Tagen ohne Abzug.",
  "Vielen Dank für Ihren Auftrag.",
];
const FRENCH = [
  "Société Générale Équipements",
  "12 rue de la République · 69002 Lyon",
  "Facture n° 2024-0458",
  "Date de facture : 14/03/2024",
  "Client : Hôtel des Célestins",
  "Désignation Quantité Prix unitaire Montant",
  "1 Entretien de la chaudière 1 450,00 450,00",
  "Total HT 450,00 EUR",
  "TVA 20 % 90,00 EUR",
  "Total TTC 540,00 EUR",
  "Paiement à réception de la facture par virement.",
  "Merci de votre confiance.",
];
const DUTCH = [
  "Van der Berg Installatietechniek B.V.",
  "Keizersgracht 112 · 1015 CV Amsterdam",
  "Factuur nr. 2024-0458",
  "Factuurdatum: 14-03-2024",
  "Klant: Bakkerij de Vries, Hoofdstraat 5",
  "Omschrijving Aantal Prijs per stuk Bedrag",
  "1 Onderhoud van de verwarming 1 450,00 450,00",
  "Subtotaal 450,00 EUR",
  "BTW 21 % 94,50 EUR",
  "Totaal te betalen 544,50 EUR",
  "Gelieve te betalen binnen 14 dagen na de factuurdatum.",
  "Hartelijk dank voor uw bestelling.",
];
const ENGLISH = [
  "Harbour Supplies Ltd",
  "14 Mill Road · Cambridge CB1 2AB",
  "Invoice No. 2024-0458",
  "Invoice date: 14 March 2024",
  "Bill to: The Old Bakery, 5 High Street",
  "Description Quantity Unit price Amount",
  "1 Boiler service and repair 1 450.00 450.00",
  "Subtotal 450.00 GBP",
  "VAT 20 % 90.00 GBP",
  "Total due 540.00 GBP",
  "Please pay within 14 days of the invoice date.",
  "Thank you for your business.",
];

let native: OcrEngine;
beforeAll(async () => {
  native = await createOcrEngine({ engine: "native", workers: 1 });
}, OCR_TIMEOUT);
afterAll(async () => native?.close());

describe("the page's language from its own words", () => {
  test("German, French and English pages as the English model reads them (umlauts and accents lost)", () => {
    expect(guessLanguage("Schafer Haustechnik\nRechnung Nr. 5\nSumme netto 10,00\nVielen Dank fir Ihren Auftrag")).toBe(
      "deu",
    );
    expect(guessLanguage("Societe Generale\nFacture n 12\nTotal HT\nTVA 20 %\nMerci de votre confiance")).toBe("fra");
    expect(guessLanguage(ENGLISH.join("\n"))).toBeNull();
    // An English invoice with a German bank line is English; two names decide nothing.
    expect(guessLanguage(`${ENGLISH.join("\n")}\nBankverbindung: Sparkasse, Kontoinhaber Müller`)).toBeNull();
    expect(guessLanguage("Müller Köhler")).toBeNull();
    // A language the engine cannot read is no choice.
    expect(guessLanguage(GERMAN.join("\n"), (l) => l !== "deu")).toBeNull();
  });
});

describe("zero configuration: the native engine reads each page with its language", () => {
  test(
    "a German and a French page are read again with deu+eng / fra+eng and keep their umlauts and accents",
    async () => {
      const engine = counted(native);
      const pages = [source(GERMAN, "de.png", 0), source(FRENCH, "fr.png", 1)];
      const report = await ocrPages(pages, engine, { concurrency: 1 });
      expect(report.failed).toEqual([]);
      expect(pages[0]!.text).toContain("Schäfer");
      expect(pages[0]!.text).toContain("Große Straße");
      expect(pages[1]!.text).toContain("Société Générale");
      expect(pages[1]!.text).toContain("Hôtel des Célestins");
      expect(new Set(engine.calls)).toEqual(new Set(["default", "deu+eng", "fra+eng"]));
    },
    OCR_TIMEOUT * 2,
  );

  test(
    "an English page is read in one pass; the second page of a German file is read with deu+eng at once",
    async () => {
      const english = counted(native);
      await ocrPages([source(ENGLISH, "en.png", 0)], english, { concurrency: 1 });
      expect(english.calls.every((c) => c === "default")).toBe(true);

      const german = counted(native);
      const pages = [source(GERMAN, "de.pdf", 0, 1), source(GERMAN.slice().reverse(), "de.pdf", 0, 2)];
      await ocrPages(pages, german, { concurrency: 1 });
      const firstPage = german.calls.indexOf("deu+eng");
      const secondPage = german.calls.slice(firstPage).lastIndexOf("default");
      // English only before page 1's language was known; never again after it
      expect(firstPage).toBeGreaterThan(0);
      expect(secondPage).toBe(-1);
      expect(pages[1]!.text).toContain("Schäfer");
    },
    OCR_TIMEOUT * 2,
  );

  test(
    "passes per page: a German page twice (English, then deu+eng), the file's next page once; a Dutch page twice too",
    async () => {
      expect(guessLanguage(DUTCH.join("\n"))).toBe("nld");
      const engine = counted(native);
      const pages = [
        source(GERMAN, "de.pdf", 0, 1),
        source(GERMAN.slice().reverse(), "de.pdf", 0, 2),
        source(DUTCH, "nl.png", 1, 1),
      ];
      const perPage: string[][] = [];
      await ocrPages(pages, engine, { concurrency: 1, onPage: () => perPage.push(engine.calls.splice(0)) });
      const models = perPage.map((calls) => [...new Set(calls)]);
      expect(models[0]!.slice(0, 2)).toEqual(["default", "deu+eng"]);
      expect(models[1]).toEqual(["deu+eng"]);
      // Dutch is read again with its model too (a phone photo's VAT ID needed it: language-choice.ts).
      expect([...new Set(perPage[2])]).toEqual(["default", "nld+eng"]);
      expect(pages[2]!.text).toContain("Factuurdatum");
      expect(pages[2]!.text).toContain("Hartelijk dank voor uw bestelling.");
    },
    OCR_TIMEOUT * 3,
  );

  test(
    "a project's ocr.languages wins: [eng] reads a German page in English, once",
    async () => {
      const engine = counted(native);
      const page = source(GERMAN, "de.png", 0);
      await ocrPages([page], engine, { languages: ["eng"], concurrency: 1 });
      expect(engine.calls.every((c) => c === "eng")).toBe(true);
      expect(page.text).not.toContain("Schäfer");
    },
    OCR_TIMEOUT,
  );
});

describe("the embedded engine", () => {
  test(
    "ships German (@tesseract.js-data/deu): a German page is read with it, zero configuration",
    async () => {
      const wasm = await createOcrEngine({ engine: "wasm", workers: 1 });
      try {
        const engine = counted(wasm);
        const page = source(GERMAN, "de.png", 0);
        const report = await ocrPages([page], engine, { concurrency: 1 });
        expect(report.warnings).toEqual([]);
        expect(engine.calls).toContain("deu+eng");
        expect(page.text).toContain("Schäfer");
        expect(page.text).toContain("Straße");
      } finally {
        await wasm.close();
      }
    },
    OCR_TIMEOUT * 2,
  );
});
