/**
 * The seller's name as printed in full elsewhere on the document. A scan's letterhead or a column of wrapped lines
 * gives OCR the name in pieces ("Köhler" / "Steuerberatung" / "KG" read apart, a large bold first word misread as
 * "a"), and a text layer may cut a long legal form ("UG" over "(haftungsbeschränkt)"), while the sender line, the
 * footer or the account holder's line prints the same company whole: "Bürobedarf UG (haftungsbeschränkt)" is
 * "Vogel Bürobedarf UG (haftungsbeschränkt)", "Vogel Elektrotechnik UG" is "Vogel Elektrotechnik UG
 * (haftungsbeschränkt)", "Meier Handwerk GbR" is "M. Meier Handwerk GbR". Only a company name with its legal form is
 * completed, only by a name that contains it whole and ends in a legal form, and never from the buyer's block.
 */
import type { Word } from "../model";
import { legalForm } from "./company";
import { fold } from "./fuzzy";
import { cellsOf, type Line } from "./lines";
import { nameStart } from "./name-start";
import { infoOf } from "./label-index";

/** A fuller name adds at most this many words: more is another company's name containing this one. */
const MAX_ADDED_WORDS = 3;

/** Words that introduce a name in a row or block: the name starts after them. */
const NAME_LABEL =
  /^(konto)?inhaber|^(empf[aä]nger|absender|firma|firmenname|verk[aä]ufer|account|holder|payee|beneficiary|titulaire|b[eé]n[eé]ficiaire|begunstigde|name|company|seller|from|von)$/iu;

const key = (s: string) => fold(s).toLowerCase().replace(/\s+/g, " ").trim();

/**
 * The lines' keys, made once per line list: every issuer candidate with a legal form looks through all lines, and
 * folding each line again per candidate was the largest new cost of extracting a born-digital invoice.
 */
const keysMemo = new WeakMap<Line[], string[]>();
function keysOf(lines: Line[]): string[] {
  let keys = keysMemo.get(lines);
  // key() of the line's text, from the folded lower-case text the label search keeps for each line.
  if (!keys) keysMemo.set(lines, (keys = lines.map((l) => infoOf(l).lower.replace(/\s+/g, " ").trim())));
  return keys;
}

/** `value` or the longest name printed on `lines` (outside the buyer's words) that contains it and ends in a legal form. */
export function fullerName(value: string, lines: Line[], recipient: Set<Word>): string {
  if (!legalForm(value)) return value;
  const wanted = key(value);
  const words = value.split(/\s+/).length;
  let best = value;
  const keys = keysOf(lines);
  for (const [i, line] of lines.entries()) {
    const folded = keys[i]!;
    // key() keeps lengths but for collapsed spaces: lines with runs of spaces are looked up in the line's own text.
    if (!folded.includes(wanted) || folded.length !== line.text.length) continue;
    if (line.words.some((w) => recipient.has(w.word))) continue;
    for (let at = folded.indexOf(wanted); at >= 0; at = folded.indexOf(wanted, at + 1)) {
      // The name's own cell: a label cell beside it ("Kontoinhaber   Vogel …") is no part of it.
      const cell = cellsOf(line).find(([s, e]) => s <= at && e >= at + 1);
      const fuller = nameAround(line.text, at, at + wanted.length, cell?.[0] ?? 0);
      if (!fuller || fuller.length <= best.length || key(fuller) === wanted) continue;
      if (fuller.split(/\s+/).length - words > MAX_ADDED_WORDS) continue;
      best = fuller;
    }
  }
  return best;
}

/** The company name in `text` (not before `cellStart`) that spans `from`..`to` and ends in a legal form at or after `to`. */
function nameAround(text: string, from: number, to: number, cellStart: number): string | null {
  const m = legalForm(text.slice(from));
  if (!m) return null;
  const formAt = from + m.index;
  const end = formAt + m[0].length;
  // The form starts inside the name or right after it, and reaches at least as far.
  if (formAt > to + 1 || end < to) return null;
  const run = Math.max(nameStart(text, formAt), cellStart);
  let start = run;
  // A label that introduces a name, as a capitalised word in front of it ("Kontoinhaber Vogel GmbH"), is cut off.
  for (const w of text.slice(run, from).matchAll(/\S+/g))
    if (NAME_LABEL.test(w[0])) start = run + w.index + w[0].length + 1;
  if (start > from) return null;
  // Words added in front are a name's own, capitalised ("Vogel", "M."): "Verschulden der QualityHosting AG" in a
  // sentence is no fuller name.
  if (
    text
      .slice(start, from)
      .split(/\s+/)
      .some((w) => w && !/^[\p{Lu}\p{N}&]/u.test(w))
  )
    return null;
  return text
    .slice(start, end)
    .trim()
    .replace(/[\s,;:]+$/, "");
}
