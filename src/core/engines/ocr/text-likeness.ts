import type { Word } from "../../model.ts";

/**
 * How much a recognition looks like upright text rather than the letter soup tesseract reads from a page upside down:
 * confidence-weighted share of characters in word-like tokens (Capitalised, lower, UPPER words with vowels, or
 * numbers/dates/amounts). Words whose box is taller than wide count as misses: tesseract reads a page lying on its
 * side by turning text blocks internally, and that reading must not win over the truly upright candidate.
 * 0..1; upright pages measured 0.74-0.96, upside-down ones 0.15-0.25.
 */
export function textLikeness(words: Word[]): number {
  let good = 0;
  let total = 0;
  for (const w of words) {
    const len = [...w.text].length;
    total += len;
    const [x1, y1, x2, y2] = w.bounding_box;
    const lying = len < 2 || x2 - x1 >= y2 - y1;
    if (lying && isWordLike(w.text)) good += len * w.confidence;
  }
  return total === 0 ? 0 : good / total;
}

function isWordLike(token: string): boolean {
  const t = token.replace(/^[("'“‘«[]+/u, "").replace(/[)"'”’»\].,;:!?]+$/u, "");
  if (t.length === 0) return false;
  if (/^[€$£]?\d+([.,:/-]\d+)*[%€]?$/u.test(t)) return true;
  if (!/^(\p{Lu}?\p{Ll}+|\p{Lu}+)(['’-](\p{Lu}?\p{Ll}+|\p{Lu}+))*$/u.test(t)) return false;
  return t.length < 4 || /^\p{Lu}+$/u.test(t) || /[aeiouyäöüàâéèêëîïôûùáíóú]/iu.test(t);
}
