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
import type { Line } from "./lines";
import { nameStart } from "./parties";

/** A fuller name adds at most this many words: more is another company's name containing this one. */
const MAX_ADDED_WORDS = 3;

const key = (s: string) => fold(s).toLowerCase().replace(/\s+/g, " ").trim();

/** `value` or the longest name printed on `lines` (outside the buyer's words) that contains it and ends in a legal form. */
export function fullerName(value: string, lines: Line[], recipient: Set<Word>): string {
  if (!legalForm(value)) return value;
  const wanted = key(value);
  const words = value.split(/\s+/).length;
  let best = value;
  for (const line of lines) {
    const folded = key(line.text);
    // key() keeps lengths but for collapsed spaces: lines with runs of spaces are looked up in the line's own text.
    if (!folded.includes(wanted) || folded.length !== line.text.length) continue;
    if (line.words.some((w) => recipient.has(w.word))) continue;
    for (let at = folded.indexOf(wanted); at >= 0; at = folded.indexOf(wanted, at + 1)) {
      const fuller = nameAround(line.text, at, at + wanted.length);
      if (!fuller || fuller.length <= best.length || key(fuller) === wanted) continue;
      if (fuller.split(/\s+/).length - words > MAX_ADDED_WORDS) continue;
      best = fuller;
    }
  }
  return best;
}

/** The company name in `text` that spans `from`..`to` and ends in a legal form at or after `to`, or null. */
function nameAround(text: string, from: number, to: number): string | null {
  const m = legalForm(text.slice(from));
  if (!m) return null;
  const formAt = from + m.index;
  const end = formAt + m[0].length;
  // The form starts inside the name or right after it, and reaches at least as far.
  if (formAt > to + 1 || end < to) return null;
  const start = nameStart(text, formAt);
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
