/**
 * A text's three-character sequences, hashed into a bit set: a word one of whose sequences is missing is surely not
 * in the text, found without searching it. Classifying a page searched its whole text once for each of the project's
 * ~290 cue words (`includes`, about a fifth of Classify on 500 invoice pages); most cue words are another language's
 * and fail this test. It only ever rules words out: a word that passes is searched for as before, so every answer is
 * the same as `text.includes(word)`.
 */

/** 2^16 bits: a page's few thousand distinct sequences leave most of them clear. */
const BITS = 1 << 16;

/** One sequence's bit: each position weighted apart, so "abc" and "cba" differ. */
const gramBit = (a: number, b: number, c: number) =>
  (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>> 16;

/** The bit set of `text`'s sequences of three UTF-16 code units (what `includes` compares). */
export function textGrams(text: string): Uint32Array {
  const bits = new Uint32Array(BITS >>> 5);
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const bit = gramBit(a, b, c);
    bits[bit >>> 5]! |= 1 << (bit & 31);
    a = b;
    b = c;
  }
  return bits;
}

/** The bits a word's sequences set; none for a word of fewer than three code units (it is always searched for). */
export function wordGrams(word: string): number[] {
  const out: number[] = [];
  for (let i = 2; i < word.length; i++)
    out.push(gramBit(word.charCodeAt(i - 2), word.charCodeAt(i - 1), word.charCodeAt(i)));
  return out;
}

/** `text.includes(word)`, with `grams` = textGrams(text) and `bits` = wordGrams(word). */
export function holds(text: string, grams: Uint32Array, word: string, bits: number[]): boolean {
  for (let i = 0; i < bits.length; i++) {
    const bit = bits[i]!;
    if ((grams[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  }
  return text.includes(word);
}
