/**
 * Reading the cells of a line-item row: numbers grouped by spaces kept whole, a cell's value and printed text.
 */
import type { TableColumn } from "../project";
import { type Line, type LineWord, lineHeight } from "./lines";
import { parseAmount } from "./normalize";
import { findAmounts } from "./values";

/**
 * The line's words, a number grouped by spaces ("3 218,04", "(1 234,56)") kept as one token: a group of one to
 * three digits followed, a space apart, by groups of three.
 */
export function numberTokens(line: Line): LineWord[][] {
  const tokens: LineWord[][] = [];
  const space = 0.6 * lineHeight(line);
  for (const w of line.words) {
    const last = tokens[tokens.length - 1];
    const prev = last?.[last.length - 1];
    const head = last?.[0]?.word.text ?? "";
    if (
      last &&
      prev &&
      w.box[0] - prev.box[2] <= space &&
      /^[-−(]?[€$£¥₹]?\d{1,3}$/.test(head) &&
      /^\d{3}$/.test(last.length > 1 ? prev.word.text : "000") &&
      /^\d{3}([.,]\d{1,2})?\)?-?$/.test(w.word.text)
    ) {
      last.push(w);
    } else tokens.push([w]);
  }
  return tokens;
}

/**
 * A numeric cell: amounts by their last number (after a currency or a rate), other numbers by their first. The
 * cell's words are read together, so a number grouped with spaces ("1 234,56") is one number.
 */
export function cellOf(
  column: TableColumn,
  words: LineWord[] | undefined,
): { value: number | null; text: string | null } {
  if (!words?.length) return { value: null, text: null };
  const joined = words.map((w) => w.word.text).join(" ");
  const hits = findAmounts(joined);
  const hit = column.type === "amount" ? hits[hits.length - 1] : hits[0];
  if (hit) {
    // findAmounts reads the digits; a sign in parentheses or after the number is the cell's.
    const negative = (joined[hit.start - 1] === "(" && joined[hit.end] === ")") || joined[hit.end] === "-";
    return { value: negative ? -Math.abs(hit.value) : hit.value, text: joined.slice(hit.start, hit.end) };
  }
  // A negative in parentheses with grouped digits ("(3 218,04)") is one number only as a whole.
  const whole = parseAmount(joined.replace(/[€$£¥₹]/g, ""));
  if (whole !== null) return { value: whole, text: joined };
  const text = column.type === "amount" ? words[words.length - 1]!.word.text : words[0]!.word.text;
  return { value: parseAmount(text.replace(/[^\d.,\-()]/g, "")), text };
}
