/**
 * The language of the parties' names (language-guess.ts `namesLanguage`) and what a page read in it lends the
 * English reading (language-merge.ts): generated invoices in English and French between German, French, Dutch and
 * Italian companies; word pairs as the English and the combined model read the same ink. The real engine reads drawn
 * pages in language-names-ocr.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { guessLanguage, namesLanguage } from "../../../../src/core/engines/ocr/language-guess.ts";
import { lendsDiacritics, mergeDiacritics } from "../../../../src/core/stages/ocr/language-merge.ts";
import type { Box, Word } from "../../../../src/core/model.ts";
import { Rng } from "../../../../fixtures/varied/generator/random";

/** Companies of a country as an English model reads them (no diacritics), with the country's model. */
const COUNTRIES: Array<[lang: string, names: string[], streets: string[], ids: string[]]> = [
  [
    "deu",
    ["Schafer Haustechnik GmbH", "Kohler Steuerberatung KG", "Vogel Burobedarf UG (haftungsbeschrankt)"],
    ["Goethestrasse 96", "Lindenallee 45", "Bahnhofstr. 3"],
    ["USt-IdNr. DE123456789", "IBAN DE79 0000 0000 1234 5678 90"],
  ],
  [
    "fra",
    ["Societe Generale SARL", "Boulangerie Lefevre SAS"],
    ["12 rue de la Republique", "4 avenue Foch"],
    ["TVA FR40303265045", "IBAN FR76 3000 6000 0112 3456 7890 189"],
  ],
  [
    "nld",
    ["Bakker Installatie B.V.", "De Vries Transport BV"],
    ["Kerkstraat 12", "Dorpslaan 4"],
    ["BTW NL123456789B01"],
  ],
  ["ita", ["Rossi Forniture S.r.l.", "Bianchi Impianti SRL"], ["Via Roma 3", "Piazza Garibaldi 9"], ["IT12345678901"]],
];
const ENGLISH_LABELS = ["Invoice", "Bill to", "Invoice number", "Due date", "Subtotal", "Tax", "Total due"];
const FRENCH_LABELS = ["Facture", "Adresse de facturation", "Numéro de facture", "Échéance", "Total HT", "TVA"];

/** An invoice in `labels`' language between two companies of the country, seeded. */
function invoice(seed: number, labels: string[], country: (typeof COUNTRIES)[number], withIds = true): string {
  const r = new Rng(seed);
  const [, names, streets, ids] = country;
  const lines = [r.pick(names), r.pick(streets), ...labels.map((l) => `${l}: ${r.int(10, 999)}`), r.pick(names)];
  if (withIds) lines.push(r.pick(ids));
  return lines.join("\n");
}

describe("the language of the parties' names", () => {
  test("an English invoice between companies of a country names that country's language", () => {
    for (const country of COUNTRIES)
      for (const seed of [1, 2, 3, 4]) {
        const text = invoice(seed, ENGLISH_LABELS, country);
        expect([country[0], seed, guessLanguage(text)]).toEqual([country[0], seed, null]);
        expect([country[0], seed, namesLanguage(text, null)]).toEqual([country[0], seed, country[0]]);
      }
  });

  test("a French invoice between German companies: the names' language is German, the page's French", () => {
    const german = COUNTRIES[0]!;
    for (const seed of [1, 2, 3, 4]) {
      const text = `${invoice(seed, FRENCH_LABELS, german)}\nMerci de votre confiance, paiement par virement avant la date`;
      expect(guessLanguage(text)).toBe("fra");
      expect(namesLanguage(text, "fra")).toBe("deu");
    }
  });

  test("no second language: the page's own, English names, a name or two, or a model the engine lacks", () => {
    const german = COUNTRIES[0]!;
    // German names on a German page are the page's language.
    expect(namesLanguage("Rechnung\nSchafer Haustechnik GmbH\nGoethestrasse 96\nDE123456789", "deu")).toBeNull();
    expect(namesLanguage("Invoice\nHarbour Supplies Ltd\n14 Mill Road\nVAT GB 140 7939 02", null)).toBeNull();
    // One legal form decides nothing.
    expect(namesLanguage("Invoice\nBill to: Acme GmbH\nTotal due: 12.00", null)).toBeNull();
    expect(namesLanguage(invoice(1, ENGLISH_LABELS, german), null, (l) => l !== "deu")).toBeNull();
  });
});

const box = (x: number, y = 100, w = 120): Box => [x, y, x + w, y + 30];
const word = (text: string, confidence: number, b: Box, line = 1): Word => ({
  text,
  confidence,
  bounding_box: b,
  line,
});

describe("the English reading takes its names' diacritics from the second", () => {
  /** English reading → what the combined model reads on the same ink. */
  const PAIRS: Array<[string, string]> = [
    ["Schafer", "Schäfer"],
    ["Wirzburg", "Würzburg"],
    ["Gottingen", "Göttingen"],
    ["fir", "für"],
    ["(haftungsbeschrénkt)", "(haftungsbeschränkt)"],
    ["GoethestraBe", "Goethestraße"],
    ["GoethestralRe", "Goethestraße"],
    ["Strasse", "Straße"],
    ["Kôhler", "Köhler"],
    ["Societe", "Société"],
    ["Generale", "Générale"],
  ];

  test("a word read with the same letters but its diacritics is taken, with its line and box kept", () => {
    const r = new Rng(7);
    for (const [en, de] of PAIRS) {
      const x = r.int(100, 1500);
      const base = { words: [word("Invoice", 0.95, box(50)), word(en, 0.8, box(x))], text: "", confidence: 0.9 };
      const other = {
        words: [word("Invoice", 0.95, box(50)), word(de, 0.9, box(x + r.int(-8, 8), 100 + r.int(-4, 4)), 3)],
        text: "",
        confidence: 0.9,
      };
      const merged = mergeDiacritics(base, other);
      expect(merged.words.map((w) => w.text)).toEqual(["Invoice", de]);
      expect(merged.words[1]!.line).toBe(1);
      expect(merged.words[1]!.bounding_box).toEqual(box(x));
      expect(merged.text).toBe(`Invoice ${de}`);
    }
  });

  test("nothing else changes: other letters, unsure readings, other ink, words without diacritics", () => {
    for (const [en, other] of [
      ["Total", "Tötal"], // the second reading is not sure enough (below)
      ["Schafer", "Schäfers"], // another word
      ["Amount", "Betrag"],
      ["12.50", "12,50"],
      ["Mannheim", "Mannheim"],
    ] as const) {
      const sure = en === "Total" ? 0.6 : 0.95;
      expect([en, lendsDiacritics(word(en, 0.8, box(100)), word(other, sure, box(100)))]).toEqual([en, false]);
    }
    // A word the page's model read with accents of its own keeps them unless the second is surer.
    expect(lendsDiacritics(word("Désignation", 0.9, box(100)), word("Dèsignation", 0.85, box(100)))).toBe(false);
    // Much less sure than the English reading of the same word.
    expect(lendsDiacritics(word("Schafer", 0.97, box(100)), word("Schäfer", 0.8, box(100)))).toBe(false);
    // A hyphenated word (a Unicode-mode pattern takes no "\\-"): lent its umlaut, no error failing the page's OCR.
    expect(
      lendsDiacritics(word("Muller-Ludenscheidt", 0.8, box(100)), word("Müller-Lüdenscheidt", 0.95, box(100))),
    ).toBe(true);
    expect(lendsDiacritics(word("Wurzburg-12", 0.8, box(100)), word("Würzburg-1/2", 0.95, box(100)))).toBe(false);
    // The same word elsewhere on the page is other ink.
    const base = { words: [word("Schafer", 0.8, box(100))], text: "Schafer", confidence: 0.8 };
    const far = { words: [word("Schäfer", 0.95, box(100, 400))], text: "Schäfer", confidence: 0.95 };
    expect(mergeDiacritics(base, far)).toBe(base);
  });
});
