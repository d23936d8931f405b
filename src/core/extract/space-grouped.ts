/** Amounts grouped by spaces that AMOUNT_RE (normalize.ts) leaves as separate numbers; read by values.ts readAmount. */
import type { Line } from "./lines";

/**
 * An amount grouped by spaces with no sign before it ("Total excl. VAT 1 228.53", as South African software prints
 * it): AMOUNT_RE reads two numbers there, since in an item row a quantity stands before the price ("3 361.34"). Its
 * groups stand a space apart in one cell, where a row's columns stand a gap apart: the words before the decimal part
 * (`start`..`end` of `line`), each of one to three digits and at most half a word's height from the next, make it
 * one amount. Null when no such group is there.
 */
export function spaceGrouped(line: Line, start: number, end: number): { value: number; start: number } | null {
  if (!/^\d{3}\.\d{2}$/.test(line.text.slice(start, end))) return null;
  let at = line.words.findIndex((w) => w.start === start && w.end === end);
  if (at < 1) return null;
  let first = start;
  let digits = line.text.slice(start, end);
  for (let groups = 0; at > 0 && groups < 3; groups++) {
    const [prev, word] = [line.words[at - 1]!, line.words[at]!];
    const text = line.text.slice(prev.start, prev.end);
    const near = word.box[0] - prev.box[2] <= 0.5 * (word.box[3] - word.box[1]) && prev.end + 1 === word.start;
    if (!near || !/^\d{1,3}$/.test(text)) break;
    digits = text + digits;
    first = prev.start;
    at--;
    if (text.length < 3) break;
  }
  return first < start && !/^0/.test(digits) ? { value: Number(digits), start: first } : null;
}
