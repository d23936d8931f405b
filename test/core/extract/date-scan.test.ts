/**
 * The date search that tries month names only where one may start (src/core/extract/date-scan.ts) gives exactly
 * the matches of matchAll over DATE_RE, on invoice text and on generated strings built to hit its corners: day
 * suffixes touching names, "de", names inside words, line breaks inside dates, accents, ſ and dotted İ.
 */
import { expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { DATE_RE, findDates, clearDateMemo } from "../../../src/core/extract/normalize";
import { monthNameStarts, monthNamesOf } from "../../../src/core/extract/date-scan";

const reference = (text: string) => [...text.matchAll(DATE_RE)].map((m) => [m.index, m[0]]);
/** findDates' spans, which come from dateMatches. */
const scanned = (text: string) => {
  clearDateMemo();
  return findDates(text, "dmy").map((d) => [d.start, text.slice(d.start, d.end)]);
};

const WORDS = [
  "jan",
  "Jan.",
  "JANUARY",
  "march",
  "Mar",
  "Sept",
  "sept.",
  "dec",
  "pro",
  "mayo",
  "marchde",
  "Décembre",
  "DÉCEMBRE",
  "października",
  "MÄRZ",
  "mrz",
  "juil",
  "Août",
  "Juni",
  "de",
  "maio",
  "xjan",
  "janx",
  "summary",
  "email",
  "ſept",
  "İan",
  "ıan",
  "ΣΕΠ",
  "de\u0301cembre",
  "stjan",
  "1stMarch",
  "ermai",
  "ſtjan",
  "julde",
  "mayd",
  "Łuty",
  "KWIECIEŃ",
  "březen",
  "\ud835\udc00jan",
  "𝐉an",
];
const BITS = [
  "1",
  "12",
  "31",
  "2024",
  "24",
  "st",
  "nd",
  "th",
  "er",
  ".",
  ",",
  " ",
  "  ",
  "-",
  "/",
  "de ",
  "T10",
  ":",
  "x",
  "\u00a0",
  "\n",
  "\t",
  "de\n",
  "€",
  "3rd",
  "0",
  "05.06.",
  "$",
];
/** Whole dates and near-dates, so that most generated strings hold some. */
const DATES = [
  "12 March 2024",
  "March 5, 2024",
  "12-Mar-24",
  "05.06.2024",
  "2024-03-12",
  "1st jan 24",
  "3 de marzo de 2024",
  "12-Mar-05.06.2024",
  "15. března 2024",
  "Jan 31,2022",
  "31/12/2017",
  "3.1.24",
  "12 MAR 2024T10",
];

function generated(count: number): string[] {
  let seed = 7;
  // mulberry32: seeded, so every run tests the same strings.
  const rnd = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  return Array.from({ length: count }, () => {
    let s = "";
    for (let j = 2 + rnd(14); j > 0; j--) {
      const pool = [WORDS, BITS, BITS, DATES][rnd(4)]!;
      s += pool[rnd(pool.length)];
    }
    return s;
  });
}

test("finds exactly DATE_RE's matches on generated strings", () => {
  const texts = generated(20_000);
  const differing = texts.filter((t) => JSON.stringify(scanned(t)) !== JSON.stringify(reference(t)));
  expect(differing).toEqual([]);
  // The strings do exercise both kinds of dates.
  expect(texts.filter((t) => reference(t).length > 0).length).toBeGreaterThan(1000);
  expect(
    texts.filter((t) =>
      /[a-z]/i.test(
        reference(t)
          .map((m) => m[1])
          .join(""),
      ),
    ).length,
  ).toBeGreaterThan(200);
}, 60_000);

test("finds exactly DATE_RE's matches in the shared corpora's text files, whole and line by line", () => {
  const root = path.resolve(import.meta.dir, "../../../fixtures/corpora");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".txt"));
  expect(files.length).toBeGreaterThan(0);
  const texts = files.map((f) => readFileSync(path.join(root, f), "utf8"));
  for (const text of [...texts, ...texts.flatMap((t) => t.split("\n"))]) expect(scanned(text)).toEqual(reference(text));
}, 60_000);

test("month names are looked for at word starts and after day suffixes; a word with letters it cannot judge counts as both", () => {
  const months = monthNamesOf(["jan", "march"]);
  expect(monthNameStarts("Summary 1stjan, march 5", months)).toEqual([11, 16]);
  expect(monthNameStarts("marchde 2024", months)).toEqual([0]);
  expect(monthNameStarts("email janx", months)).toEqual([]);
  expect(monthNameStarts("ſtjan", months)).toEqual([0, 2]);
  expect(monthNameStarts("ΣΕΠ 12", months)).toEqual([0]);
});
