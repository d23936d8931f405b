/**
 * The cheap tests that spare extraction and classification a search (issue 34) MUST never turn a match away: each is
 * implied by what it stands in front of. Checked here for every label and cue phrase of the default project over
 * the invoice corpus's lines, and on texts made to hit each test's edge.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { compiledOf, holdsWords, labelRegex } from "../../../src/core/extract/label-regex";
import { fold } from "../../../src/core/extract/fuzzy";
import { pageLines } from "../../../src/core/extract/lines";
import { findAmounts } from "../../../src/core/extract/values";
import { inferDateOrder } from "../../../src/core/extract/normalize";
import { letters } from "../../../src/core/extract/word-bounds";
import { cueTextOf, headingText, scoreClass } from "../../../src/core/classify/cues";
import { defaultProject } from "../../../src/core/project";
import { convertSource } from "../../../src/core/stages/convert";
import type { Page } from "../../../src/core/model";

const CORPUS = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data");

async function corpusPages(): Promise<Page[]> {
  const pages: Page[] = [];
  for (const name of readdirSync(CORPUS)
    .filter((n) => n.endsWith(".pdf"))
    .sort()) {
    const data = new Uint8Array(readFileSync(path.join(CORPUS, name)));
    const converted = await convertSource(
      { index: 0, filename: name, data, split_policy: "auto" } as never,
      {
        firstPageNumber: 1,
        maxPages: 3,
      } as never,
    );
    pages.push(...converted.pages);
    await converted.close?.();
  }
  return pages;
}
const pages = await corpusPages();
const lines = pages.flatMap((p) => pageLines(p));

/** Every string of the default project in a list named `key`, wherever it is. */
function listsNamed(key: string, node: unknown = defaultProject, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) listsNamed(key, v, out);
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node)) {
      if (k === key && Array.isArray(v)) for (const s of v) if (typeof s === "string") out.add(s);
      listsNamed(key, v, out);
    }
  return out;
}

test("a line lacking one of a label's words never holds the label (text-layer and OCR regexes)", () => {
  expect(lines.length).toBeGreaterThan(300);
  const labels = [...listsNamed("labels")];
  expect(labels.length).toBeGreaterThan(150);
  // The corpus lines, and each label printed in capitals, glued, with a dot or a dash, after and before other text.
  const texts = lines.map((l) => l.text);
  for (const label of labels) {
    const bare = label.replace(/^\^/, "");
    texts.push(bare.toUpperCase(), `Re: ${bare}: 12`, bare.replace(/\s+/g, ""), bare.replace(/\s+/g, ".-"));
  }
  let matched = 0;
  let spared = 0;
  for (const label of labels) {
    const { words } = compiledOf([label]);
    for (const text of texts) {
      const folded = fold(text);
      const lower = folded.toLowerCase();
      const holds = holdsWords(lower, words[0]!);
      if (!holds) spared++;
      for (const ocr of [false, true]) {
        if (!labelRegex(label, ocr).test(folded)) continue;
        matched++;
        expect({ label, text, holds }).toEqual({ label, text, holds: true });
      }
    }
  }
  expect(matched).toBeGreaterThan(1000);
  expect(spared).toBeGreaterThan(matched);
});

test("the label words are not required of a line holding ſ, which the regexes read as s", () => {
  const folded = fold("Rechnungsnummer: RE-1 / Gesamtbetraſ");
  expect(labelRegex("gesamtbetras").test(folded)).toBe(true);
  expect(holdsWords(folded.toLowerCase(), compiledOf(["gesamtbetras"]).words[0]!)).toBe(false);
});

test("a cue phrase is scored the same with or without the test of its other words", () => {
  const texts = [...pages.map((p) => p.text), "CREDIT\nNOTE 12.00", "credit-note", "Total HTVA 5,00", "order  confirm"];
  let hits = 0;
  for (const text of texts) {
    const prepared = cueTextOf(text, headingText(text.split("\n").slice(0, 8).join("\n")));
    expect(prepared.plain).toBe(true);
    for (const cls of defaultProject.classes) {
      const spared = scoreClass(cls, prepared);
      expect(spared).toEqual(scoreClass(cls, { ...prepared, plain: false }));
      hits += spared.hits.length;
    }
  }
  expect(hits).toBeGreaterThan(50);
  expect(cueTextOf("Gutſchrift", "").plain).toBe(false);
});

test("a line with an amount with decimals prints a decimal mark before a digit", () => {
  const texts = [...lines.map((l) => l.text), "RM48.40", "3.396,19EUR", "Total ..1.344,00", "12,5 €", "12.-", "1 234"];
  let decimals = 0;
  for (const text of texts)
    for (const order of ["dmy", "mdy"] as const)
      if (findAmounts(text, order).some((a) => a.decimals)) {
        decimals++;
        expect({ text, mark: /[.,]\d/.test(text) }).toEqual({ text, mark: true });
      }
  expect(decimals).toBeGreaterThan(100);
});

test("dates that disagree in number settle the order without the country or the US-English hint", () => {
  let asked = 0;
  const hint = () => {
    asked++;
    return true;
  };
  // Dollars, a US address and English words speak for month-first; a date with a day above 12 says day-first.
  const usLetter = "Invoice date 13/01/2024\nNew York, NY 10001\nTotal due $120.00 for the order, thank you";
  expect(inferDateOrder([usLetter], "auto", hint)).toBe("dmy");
  expect(asked).toBe(0);
  // A German seller (EUR, GmbH, +49) and a date with a second number above 12: month-first.
  expect(inferDateOrder(["Muster GmbH, Tel. +49 30 1234567\nDatum 01/13/2024\nSumme 12,00 EUR"], "auto", hint)).toBe(
    "mdy",
  );
  expect(asked).toBe(0);
  // No date decides: the country and the hint do.
  expect(inferDateOrder(["Invoice date 03/04/2024\nNew York, NY 10001\nTotal $5.00"], "auto", hint)).toBe("mdy");
  expect(asked).toBe(1);
});

test("letters are counted as the letter regex counts them, ASCII or not", () => {
  const texts = [...lines.map((l) => l.text), "", "Ab1@[`{z", "Köhler GmbH", "𝐀𝐁 ab", "x\u0301y", "東京 AG", "ǅ 12"];
  for (const text of texts) expect(letters(text)).toBe((text.match(/\p{L}/gu) ?? []).length);
});
