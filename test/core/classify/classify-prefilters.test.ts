/**
 * Classification's shortcuts (issue 34) MUST score exactly as the searches they replace: a cue pattern is not run on a
 * text lacking a word every match of it contains (pattern-literals.ts), the tax line is two regexes instead of one
 * with `\p{L}*steuer`, and the heading zone and its title lines come from one pass over the first page. Checked on the
 * invoice corpus's pages, the training letters and texts made to hit each edge. A cue word is ruled out by its
 * three-character sequences (text-grams.ts) exactly where `includes` would not find it.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  cuePatternScans,
  cueTextOf,
  headingText,
  headingZones,
  scoreClass,
  titleZone,
} from "../../../src/core/classify/cues";
import { mayMatch, patternNeeds } from "../../../src/core/classify/pattern-literals";
import { hasTaxLine } from "../../../src/core/classify/structure";
import { holds, textGrams, wordGrams } from "../../../src/core/classify/text-grams";
import { fold } from "../../../src/core/extract/fuzzy";
import { defaultProject } from "../../../src/core/project";
import { convertSource } from "../../../src/core/stages/convert";

const ROOT = path.resolve(import.meta.dir, "../../..");

async function corpusTexts(): Promise<string[]> {
  const dir = path.join(ROOT, "fixtures/corpora/invoice2data");
  const texts: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".pdf"))) {
    const data = new Uint8Array(readFileSync(path.join(dir, name)));
    const converted = await convertSource(
      { index: 0, filename: name, data, split_policy: "auto" } as never,
      {
        firstPageNumber: 1,
        maxPages: 3,
      } as never,
    );
    texts.push(...converted.pages.map((p) => p.text));
    await converted.close?.();
  }
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".txt")))
    texts.push(readFileSync(path.join(dir, name), "utf8"));
  const letters = path.join(ROOT, "fixtures/training/letters");
  for (const entry of readdirSync(letters, { recursive: true }) as string[])
    if (entry.endsWith(".txt")) texts.push(readFileSync(path.join(letters, entry), "utf8"));
  return texts;
}
const texts = await corpusTexts();

const EDGES = [
  "Rechnung Nr. 2024-117\nUmsatzsteuer 19% 12,00\nKfz-Steuerbescheid 14,00",
  "Abrechnung\nMietvertrag\nRahmenvereinbarung § 3",
  "VISA ****1234\nCHANGE DUE 0.50\nRückgeld 1,20\nmonnaie rendue 2,00",
  "Gesamtbetraſ\nSteuer: 1.00\nſteuer 2.00\nMehrwertsteuer 3,00\nsteuerfrei 4,00",
  "INV-No 12\ninvoice number 7\n14/07/2023 07:51",
];

test("a cue pattern's requirements are read only where certain", () => {
  expect(patternNeeds("(?<![\\p{L}])\\p{L}{3,}rechnung(?![\\p{L}])")).toEqual([["rechnung"]]);
  expect(patternNeeds("\\b(visa|mastercard|maestro)\\b")).toEqual([["visa", "mastercard", "maestro"]]);
  expect(patternNeeds("\\binv(oice)?[\\s.#:-]*(no|nr|number)\\b")).toEqual([["inv"], ["no", "nr", "number"]]);
  expect(patternNeeds("\\bChange\\s+due\\b")).toEqual([["change"], ["due"]]);
  // Nothing is required of an alternation at the top, a quantified letter or group, or what an escape names.
  for (const source of ["abc|def", "ab*cd", "x(abc)?y", "(abc){0,2}", "\\u0041bc", "\\x41bc", "(a)\\1", "[abc]", "."])
    for (const any of patternNeeds(source)) expect(any.every((w) => w.length >= 2)).toBe(true);
  expect(patternNeeds("abc|def")).toEqual([]);
  expect(patternNeeds("ab*cd")).toEqual([["cd"]]);
  expect(patternNeeds("x(abc)?yz")).toEqual([["yz"]]);
  expect(patternNeeds("\\u0041bc")).toEqual([]);
  expect(patternNeeds("[^]cd")).toEqual([["cd"]]);
  expect(patternNeeds("(a)\\1bc")).toEqual([]);
  expect(patternNeeds("(?=abc)de")).toEqual([["de"]]);
});

test("a text lacking a pattern's requirement has no match of it", () => {
  const patterns = defaultProject.classes.flatMap((c) => c.cue_patterns).map(fold);
  expect(patterns.length).toBeGreaterThan(5);
  let matched = 0;
  for (const text of [...texts, ...EDGES]) {
    const lower = fold(text.toLowerCase());
    if (lower.includes("\u017f")) continue; // such texts are searched as before (CueText.plain)
    for (const source of patterns) {
      const hit = new RegExp(source, "giu").test(lower);
      if (hit) matched++;
      if (hit) expect(mayMatch(lower, patternNeeds(source))).toBe(true);
    }
  }
  expect(matched).toBeGreaterThan(5);
});

test("patterns run only on texts holding their words (guard)", () => {
  const withNeeds = defaultProject.classes.flatMap((c) => c.cue_patterns).filter((p) => patternNeeds(fold(p)).length);
  const without = defaultProject.classes.flatMap((c) => c.cue_patterns).length - withNeeds.length;
  expect(withNeeds.length).toBeGreaterThanOrEqual(5);
  const scans = (text: string) => {
    const before = cuePatternScans();
    for (const cls of defaultProject.classes) scoreClass(cls, cueTextOf(text, headingText(text)));
    return cuePatternScans() - before;
  };
  expect(scans("INVOICE\nTotal 12.00")).toBe(without);
  expect(scans(EDGES.join("\n"))).toBe(without + withNeeds.length);
  // A text with "ſ" is searched for every pattern, as before.
  expect(scans("Gutſchrift\nTotal 12.00")).toBe(without + withNeeds.length);
});

test("the tax line is found exactly where the one regex with \\p{L}*steuer finds it", () => {
  const ONE =
    /(?<![\p{L}])(vat|tax|gst|sst|mwst|ust|btw|tva|iva|\p{L}*steuer|mehrwertsteuer)(?![\p{L}])[^\n]*\d[.,]\d{2}/iu;
  const samples = [...texts, ...EDGES, ...EDGES.flatMap((e) => e.split("\n"))];
  let found = 0;
  for (const text of samples) {
    expect(hasTaxLine(text)).toBe(ONE.test(text));
    if (ONE.test(text)) found++;
  }
  expect(found).toBeGreaterThan(10);
  expect(hasTaxLine("Kfz-Steuerbescheid 14,00")).toBe(false);
  expect(hasTaxLine("Umsatzsteuer: 1,00")).toBe(true);
});

test("the heading zone and its title lines are those of headingText and titleZone", () => {
  for (const text of [...texts, ...EDGES, "", "\n\n", "Rechnung 1234567\n\nKunde\nInvoice INV-2024-17\nx\ny\nz\nw"]) {
    const zones = headingZones(text);
    expect(zones.heading).toBe(headingText(text));
    expect([...zones.titles]).toEqual([...cueTextOf("", "", false, titleZone(text)).titles]);
  }
});

test("a word is held by a text's sequences exactly where `includes` finds it", () => {
  // "abcd" has both its sequences in "abc-bcd" without being in it: the search decides.
  const words = new Set<string>(["", "a", "ab", "abc", "abcd", "\u017f", "\ud83d\ude00x", "x\ud83d"]);
  for (const c of defaultProject.classes)
    for (const cue of [...c.cue_words, ...c.negative_cue_words])
      for (const w of fold(cue.toLowerCase()).trim().split(/\s+/)) words.add(w);
  const samples = [...texts, ...EDGES, "", "a", "ab", "abc", "cba", "\ud83d\ude00xy", "rechnungrechnung", "abc-bcd"];
  let held = 0;
  for (const text of samples) {
    const lower = fold(text.toLowerCase());
    const grams = textGrams(lower);
    for (const w of words) {
      const found = lower.includes(w);
      expect(holds(lower, grams, w, wordGrams(w))).toBe(found);
      if (found) held++;
    }
  }
  expect(held).toBeGreaterThan(100);
  // The sequences alone rule words out: one with a sequence the text lacks is not searched for.
  const grams = textGrams("invoice total");
  expect(wordGrams("rechnung").some((b) => (grams[b >>> 5]! & (1 << (b & 31))) === 0)).toBe(true);
  expect(wordGrams("voice").every((b) => (grams[b >>> 5]! & (1 << (b & 31))) !== 0)).toBe(true);
});
