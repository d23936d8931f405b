/**
 * Whether a page's text layer is usable or garbage (unmapped fonts, symbol soup), judged on its words.
 * Pure: no pdf.js import, so it runs in the pdf worker and in unit tests alike.
 */
import type { Word } from "../../model.ts";

export interface TextLayerVerdict {
  usable: boolean;
  /** Letters and digits in the layer. */
  alnum: number;
  /** Why a layer was rejected (for the page warning). */
  reason?: string;
}

/**
 * A text layer is usable when it has real words: at least one letter or digit, at most 10 % of its characters
 * unmappable (private use area, U+FFFD, control characters: what fonts without a Unicode map, typically Type3,
 * produce), and at least half of its characters letters or digits (garbage maps often yield punctuation soup).
 * Leader runs of dots, dashes or underscores are left out of the count.
 */
export function judgeTextLayer(words: Word[]): TextLayerVerdict {
  let total = 0,
    alnum = 0,
    bad = 0;
  for (const word of words) {
    const text = word.text;
    // Code point by code point (as for…of would go, without its iterator objects).
    for (let i = 0; i < text.length; i++) {
      total++;
      const code = text.charCodeAt(i);
      if (code < 128) {
        // Leader runs ("Total ........ 12,00", "Name ______") are layout, not text: they don't count at all.
        if (
          (code === 46 || code === 95 || code === 45) &&
          (text.charCodeAt(i - 1) === code || text.charCodeAt(i + 1) === code)
        ) {
          total--;
          continue;
        }
        // ASCII fast path: the regexes below cost more than the whole text extraction on long documents.
        if ((code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122)) alnum++;
        else if (code < 32 || code === 127) bad++;
        continue;
      }
      const point = text.codePointAt(i)!;
      const ch = String.fromCodePoint(point);
      if (point > 0xffff) i++;
      if (/[\p{L}\p{N}]/u.test(ch)) alnum++;
      else if (/[\p{Co}\p{Cc}\p{Cs}\uFFFD]/u.test(ch)) bad++;
    }
  }
  if (total === 0 || alnum === 0) return { usable: false, alnum, reason: "no text layer" };
  if (bad / total > 0.1)
    return { usable: false, alnum, reason: `text layer has ${bad} unmappable characters of ${total}` };
  if (alnum / total < 0.5)
    return { usable: false, alnum, reason: `text layer is mostly symbols (${alnum} letters/digits of ${total})` };
  return { usable: true, alnum };
}
