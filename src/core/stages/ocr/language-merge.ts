/**
 * A page read twice, in English and with the language of its names (language-choice.ts): the English reading stands,
 * and takes from the second only what the English model cannot give, a word's umlauts, accents and ß. The English
 * model reads "Schäfer" as "Schafer", "Würzburg" as "Wirzburg", "haftungsbeschränkt" as "haftungsbeschrénkt" and
 * "Straße" as "StraBe"; the combined model reads the same ink with its letters. A word is taken when the two readings
 * cover the same ink, differ only where the second reads a letter outside ASCII, and the second is sure of it: the
 * rest of the page (labels, amounts, dates) keeps the reading of the model its language wants.
 */
import type { Box, Word } from "../../model.ts";
import { meanConfidence, textOfWords } from "../../engines/ocr/tsv.ts";
import type { OcrResult } from "../../engines/ocr/types.ts";

/** The second reading's word is taken only this sure of itself ... */
const MIN_CONFIDENCE = 0.75;
/** ... and no less sure than the first reading's, by more than this. */
const SLACK = 0.1;
/** Share of the smaller box the two words' boxes must have in common: the same ink. */
const SAME_INK = 0.6;

/** `base` with the diacritics `other` reads on the same words (both readings of one image, same pixel space). */
export function mergeDiacritics(base: OcrResult, other: OcrResult): OcrResult {
  const candidates = other.words.filter((w) => /[^\p{ASCII}]/u.test(w.text) && /\p{L}/u.test(w.text));
  if (candidates.length === 0) return base;
  let changed = 0;
  const words = base.words.map((w) => {
    const better = candidates.find((o) => sameInk(w.bounding_box, o.bounding_box) && lendsDiacritics(w, o));
    if (!better) return w;
    changed++;
    return { ...w, text: better.text, confidence: Math.max(w.confidence, better.confidence) };
  });
  if (changed === 0) return base;
  return { ...base, words, text: textOfWords(words), confidence: meanConfidence(words) };
}

/** `other` reads `w`'s ink with letters outside ASCII where `w` has something else, and is sure of them. */
export function lendsDiacritics(w: Word, other: Word): boolean {
  if (w.text === other.text || other.confidence < MIN_CONFIDENCE || other.confidence < w.confidence - SLACK)
    return false;
  // A word the first model read with diacritics of its own ("Kôhler" by the French model) gives way to a surer one.
  if (/[^\p{ASCII}]/u.test(w.text) && other.confidence <= w.confidence) return false;
  return diacriticPattern(other.text).test(w.text);
}

/**
 * A pattern the first reading of a word matches when it differs from `text` only where `text` has a letter outside
 * ASCII: such a letter may have been read as any one or two characters ("ü" as "u" or "i", "ß" as "B" or "lR"), or
 * lost ("ss" for "ß" is two).
 */
function diacriticPattern(text: string): RegExp {
  let source = "";
  for (const ch of text.normalize("NFC")) {
    if (/[^\p{ASCII}]/u.test(ch) && /\p{L}/u.test(ch)) source += ".{0,2}";
    // Only syntax characters are escaped: a Unicode-mode pattern rejects "\-" outside a class, and one hyphenated
    // word with an umlaut ("Müller-Lüdenscheidt") made the whole page's OCR fail.
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

function sameInk(a: Box, b: Box): boolean {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return false;
  const smaller = Math.min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
  return smaller > 0 && (w * h) / smaller >= SAME_INK;
}
