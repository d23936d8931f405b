/**
 * Names in another language than the page, read by the real engine (zero configuration): an English invoice between
 * German companies is read again with deu+eng and keeps its English reading but for the names' umlauts and ß; a
 * French one is read with fra+eng, and with deu+eng for its names; an English invoice between English companies is
 * still read once (language-choice.test.ts). Pages are
 * generated from seeded names; passes are counted by the languages each recognition asked for.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { Rng } from "../../../../fixtures/varied/generator/random";
import { OCR_TIMEOUT } from "../../engines/ocr/helpers.ts";
import { counted, source } from "./language-pages.ts";

const SELLERS = ["Schäfer Haustechnik GmbH", "Köhler Steuerberatung KG", "Krüger Bürobedarf GmbH"];
const BUYERS = ["Landesamt für Statistik Würzburg", "Gemeindewerke Göttingen", "Stadtwerke Lübeck"];
const STREETS = ["Goethestraße", "Müllerstraße", "Schloßallee"];

function parties(seed: number) {
  const r = new Rng(seed);
  return { seller: r.pick(SELLERS), buyer: r.pick(BUYERS), street: `${r.pick(STREETS)} ${r.int(2, 99)}` };
}

function englishInvoice(seed: number): string[] {
  const p = parties(seed);
  return [
    p.seller,
    `${p.street} · 80331 München`,
    "Invoice number: 2024-117",
    "Invoice date: 14 March 2024",
    `Bill to: ${p.buyer}`,
    "Description Quantity Unit price Amount",
    "1 Maintenance of the heating system 1 450.00 450.00",
    "Subtotal 450.00 EUR",
    "VAT 19 % 85.50 EUR",
    "Total due 535.50 EUR",
    "VAT ID DE123456789 · IBAN DE79 1000 0000 1234 5678 90",
    "Thank you for your business.",
  ];
}

function frenchInvoice(seed: number): string[] {
  const p = parties(seed);
  return [
    p.seller,
    `${p.street} · 80331 München`,
    "Facture n° 2024-0458",
    "Date de facture : 14/03/2024",
    `Client : ${p.buyer}`,
    "Désignation Quantité Prix unitaire Montant",
    "1 Entretien de la chaudière 1 450,00 450,00",
    "Total HT 450,00 EUR",
    "TVA 19 % 85,50 EUR",
    "Total TTC 535,50 EUR",
    "TVA DE123456789 · IBAN DE79 1000 0000 1234 5678 90",
    "Merci de votre confiance.",
  ];
}

let native: OcrEngine;
beforeAll(async () => {
  native = await createOcrEngine({ engine: "native", workers: 1 });
}, OCR_TIMEOUT);
afterAll(async () => native?.close());

describe("names in another language than the page", () => {
  test(
    "English invoices between German companies keep the names' umlauts and ß and their English reading",
    async () => {
      for (const seed of [1, 2]) {
        const engine = counted(native);
        const page = source(englishInvoice(seed), `en-${seed}.png`, 0);
        await ocrPages([page], engine, { concurrency: 1 });
        const p = parties(seed);
        for (const name of [p.seller, p.buyer, p.street])
          expect([seed, page.text]).toEqual([seed, expect.stringContaining(name)]);
        expect(page.text).toContain("Invoice number: 2024-117");
        expect(page.text).toContain("Total due 535.50 EUR");
        // One pass in English, one with the names' language; the English reading's second look stays English.
        expect(engine.calls.filter((c) => c === "deu+eng")).toHaveLength(1);
        expect(engine.calls[0]).toBe("default");
      }
    },
    OCR_TIMEOUT * 2,
  );

  test(
    "a French invoice between German companies is read with fra+eng and lent its names' umlauts by deu+eng",
    async () => {
      const engine = counted(native);
      const page = source(frenchInvoice(3), "fr.png", 0);
      await ocrPages([page], engine, { concurrency: 1 });
      const p = parties(3);
      expect(page.text).toContain(p.seller);
      expect(page.text).toContain(p.buyer);
      expect(page.text).toContain("Désignation Quantité");
      expect(engine.calls.slice(0, 3)).toEqual(["default", "fra+eng", "deu+eng"]);
    },
    OCR_TIMEOUT * 2,
  );
});
