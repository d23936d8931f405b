/**
 * OCR-tolerant label matching: on OCR pages a label may come back with one wrong, missing or extra character
 * ("lnvoice", "Tota1", "Rechnungsnurnmer"). Only labels of four or more letters are matched this way, with one
 * edit (two from ten letters on; four-letter labels only by an extra or a missing character), so short words
 * never turn into each other (in a label of several words, one short word may carry one confused character).
 *
 * A substitution counts as one edit only between characters OCR confuses (l/I/1, O/0, S/5, rn/m's halves...);
 * any other substitution counts two, so a real word never reads as a neighbouring one ("supplies" is no
 * "supplier"). Accents never count: OCR and typists drop them ("Ruckgeld", "Fallig am"), see `fold`.
 */

/**
 * Strips diacritics character by character, keeping the string's length (and so every offset): "Rückgeld" →
 * "Ruckgeld". The letters with a stroke that do not decompose (Polish ł, Nordic ø, đ, ħ, dotless ı) become their
 * base letter too: a PDF font without them, and OCR, give "Termin platnosci" for "Termin płatności", "Forfallsdato"
 * with "o" for "ø". Other characters that do not decompose stay as they are.
 */
export function fold(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  // Surrogate halves (U+D800-DFFF) go through foldChar unchanged: a lone half does not decompose.
  return text.replace(FOLDABLE, foldChar);
}

const FOLDABLE = /[\u00c0-\uffff]/g;
const STROKED: Record<string, string> = { ł: "l", Ł: "L", ø: "o", Ø: "O", đ: "d", Đ: "D", ħ: "h", Ħ: "H", ı: "i" };

/** Folded characters, remembered: a document repeats the same few accented letters thousands of times. */
const foldedChars = new Map<string, string>();
function foldChar(ch: string): string {
  let f = foldedChars.get(ch);
  if (f === undefined) {
    const d = ch.normalize("NFD");
    f = d.length > 1 && /^\p{M}+$/u.test(d.slice(1)) ? d[0]! : (STROKED[ch] ?? ch);
    foldedChars.set(ch, f);
  }
  return f;
}

/** Groups of characters OCR mistakes for one another (compared lower-cased and folded). */
const CONFUSABLE_GROUPS = [
  "il1|!t",
  "o0dq",
  "s5$",
  "b8h6",
  "g9q",
  "z2",
  "aeoc",
  "uvn",
  "rn",
  "mn",
  "a4",
  "t7f",
  "y4",
  "uy",
  "bd",
];
const confusable = new Set<string>();
for (const group of CONFUSABLE_GROUPS) for (const a of group) for (const b of group) if (a !== b) confusable.add(a + b);

const substitutionCostOf = (a: string, b: string) =>
  a === b ? 0 : confusable.has(a + b) || /[^\p{L}]/u.test(a + b) ? 1 : 2;
/**
 * Substitution costs by pair of UTF-16 code units, remembered: the edit distance asks for every cell of its table,
 * and building the pair string and testing it with a regex there cost ~30 ms per OCR page (measured on the bench's
 * scans); a document repeats the same few hundred pairs.
 */
const substitutionCosts = new Map<number, number>();
function substitutionCost(a: string, b: string, ca: number, cb: number): number {
  if (ca === cb) return 0;
  const key = ca * 0x10000 + cb;
  let cost = substitutionCosts.get(key);
  if (cost === undefined) {
    if (substitutionCosts.size >= 100_000) substitutionCosts.clear(); // bounded, whatever text comes through
    substitutionCosts.set(key, (cost = substitutionCostOf(a, b)));
  }
  return cost;
}

/** Rows of the distance table, reused across calls (grown as needed): the search runs it for thousands of windows. */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions, OCR-weighted substitutions),
 * stopping early above `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (rows[0]!.length < b.length + 1) rows = [0, 1, 2].map(() => new Int32Array(2 * (b.length + 1)));
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a[i - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + substitutionCost(ai, b[j - 1]!, ca, cb));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length]!;
}

export interface TokenSpan {
  text: string;
  start: number;
  end: number;
}

/** Letter/digit tokens of a line (lower-cased, accents folded) with their character offsets. */
export function tokensOf(text: string): TokenSpan[] {
  return [...fold(text).matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    text: m[0].toLowerCase(),
    start: m.index!,
    end: m.index! + m[0].length,
  }));
}

/**
 * Character ranges of `tokens` that match `label` within the allowed edits (same number of tokens, compared
 * joined without spaces). Exact matches are not returned: the regex search has them already.
 */
export function fuzzyMatches(tokens: TokenSpan[], label: string): Array<{ start: number; end: number }> {
  const shape = labelShape(label);
  if (!shape) return [];
  const { parts, target, max, lengthOnly } = shape;
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i + parts.length <= tokens.length; i++) {
    // Words of up to three letters must be read exactly: "de" one letter from "due" is just another word. In a
    // label of several words one of them may carry one character OCR confuses, its length kept ("Dye Date", "Bue
    // by" at 200 DPI). The joined length is checked before the window's text is built: most windows fail there.
    let length = 0;
    let exactShort = true;
    let misread = parts.length < 2;
    for (let k = 0; k < parts.length; k++) {
      const t = tokens[i + k]!.text;
      const part = parts[k]!;
      if (part.length <= 3 && t !== part) {
        if (misread || t.length !== part.length || editDistance(t, part, 1) > 1) {
          exactShort = false;
          break;
        }
        misread = true;
      }
      length += t.length;
    }
    if (!exactShort || Math.abs(length - target.length) > max || (lengthOnly && length === target.length)) continue;
    const joined =
      parts.length === 1
        ? tokens[i]!.text
        : tokens
            .slice(i, i + parts.length)
            .map((t) => t.text)
            .join("");
    if (joined === target) continue;
    if (editDistance(joined, target, max) <= max)
      out.push({ start: tokens[i]!.start, end: tokens[i + parts.length - 1]!.end });
  }
  return out;
}

interface LabelShape {
  parts: string[];
  target: string;
  max: number;
  lengthOnly: boolean;
}

/** A label's tokens and allowed edits (null: too short or not all letters for fuzzy matching), remembered per label. */
const labelShapes = new Map<string, LabelShape | null>();
function labelShape(label: string): LabelShape | null {
  let shape = labelShapes.get(label);
  if (shape !== undefined) return shape;
  const parts = fold(label.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? [];
  const target = parts.join("");
  shape =
    target.length < 4 || !/^[\p{L}]+$/u.test(target)
      ? null
      : { parts, target, max: target.length >= 10 ? 2 : 1, lengthOnly: target.length === 4 };
  // Labels come from the project's settings: a handful of thousands at most, but a long-running server sees many
  // projects; the memo starts over rather than grow without bound.
  if (labelShapes.size >= 10_000) labelShapes.clear();
  labelShapes.set(label, shape);
  return shape;
}
