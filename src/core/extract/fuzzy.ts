/**
 * OCR-tolerant label matching: on OCR pages a label may come back with one wrong, missing or extra character
 * ("lnvoice", "Tota1", "Rechnungsnurnmer"). Only labels of four or more letters are matched this way, with one
 * edit (two from ten letters on; four-letter labels only by an extra or a missing character), so short words
 * never turn into each other.
 *
 * A substitution counts as one edit only between characters OCR confuses (l/I/1, O/0, S/5, rn/m's halves...);
 * any other substitution counts two, so a real word never reads as a neighbouring one ("supplies" is no
 * "supplier"). Accents never count: OCR and typists drop them ("Ruckgeld", "Fallig am"), see `fold`.
 */

/**
 * Strips diacritics character by character, keeping the string's length (and so every offset): "Rückgeld" →
 * "Ruckgeld". Characters that do not decompose into a base letter and marks stay as they are.
 */
export function fold(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  // Surrogate halves (U+D800-DFFF) go through foldChar unchanged: a lone half does not decompose.
  return text.replace(FOLDABLE, foldChar);
}

const FOLDABLE = /[\u00c0-\uffff]/g;

/** Folded characters, remembered: a document repeats the same few accented letters thousands of times. */
const foldedChars = new Map<string, string>();
function foldChar(ch: string): string {
  let f = foldedChars.get(ch);
  if (f === undefined) {
    const d = ch.normalize("NFD");
    f = d.length > 1 && /^\p{M}+$/u.test(d.slice(1)) ? d[0]! : ch;
    foldedChars.set(ch, f);
  }
  return f;
}

/** Groups of characters OCR mistakes for one another (compared lower-cased and folded). */
const CONFUSABLE_GROUPS = ["il1|!t", "o0dq", "s5$", "b8h6", "g9q", "z2", "aeoc", "uvn", "rn", "mn", "a4", "t7f", "y4"];
const confusable = new Set<string>();
for (const group of CONFUSABLE_GROUPS) for (const a of group) for (const b of group) if (a !== b) confusable.add(a + b);

const substitutionCost = (a: string, b: string) => (a === b ? 0 : confusable.has(a + b) || /[^\p{L}]/u.test(a + b) ? 1 : 2);

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions, OCR-weighted substitutions),
 * stopping early above `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + substitutionCost(a[i - 1]!, b[j - 1]!));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

export interface TokenSpan { text: string; start: number; end: number }

/** Letter/digit tokens of a line (lower-cased, accents folded) with their character offsets. */
export function tokensOf(text: string): TokenSpan[] {
  return [...fold(text).matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ text: m[0].toLowerCase(), start: m.index!, end: m.index! + m[0].length }));
}

/**
 * Character ranges of `tokens` that match `label` within the allowed edits (same number of tokens, compared
 * joined without spaces). Exact matches are not returned: the regex search has them already.
 */
export function fuzzyMatches(tokens: TokenSpan[], label: string): Array<{ start: number; end: number }> {
  const parts = fold(label.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? [];
  const target = parts.join("");
  if (target.length < 4 || !/^[\p{L}]+$/u.test(target)) return [];
  const max = target.length >= 10 ? 2 : 1;
  // Four letters leave too little to tell words apart: only an extra or a dropped character ("MwsSt" for "MwSt").
  const lengthOnly = target.length === 4;
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i + parts.length <= tokens.length; i++) {
    const window = tokens.slice(i, i + parts.length);
    // Words of up to three letters must be read exactly: "de" one letter from "due" is just another word.
    if (window.some((t, k) => parts[k]!.length <= 3 && t.text !== parts[k])) continue;
    const joined = window.map((t) => t.text).join("");
    if (joined === target || Math.abs(joined.length - target.length) > max || (lengthOnly && joined.length === target.length)) continue;
    if (editDistance(joined, target, max) <= max) out.push({ start: window[0]!.start, end: window[window.length - 1]!.end });
  }
  return out;
}
