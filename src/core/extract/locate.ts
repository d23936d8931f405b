/**
 * Finding on the page a value read elsewhere (an e-invoice's XML): the words that print it, so the value gets the
 * same bounding boxes as one read from the page.
 *
 * Contract: returns the span of the first line printing the value (dates and amounts compared as values, text
 * compared on letters and digits, whole words only), or null. A value the page does not print gets no box.
 */
import type { FieldValue } from "../model";
import { type Line, type Span, spanOf } from "./lines";
import { type DateOrder, findDates } from "./normalize";
import { findAmounts } from "./values";

const compactOf = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Character offsets in `text` of each compacted character, so a compact match maps back to a range. */
function compactIndex(text: string): { compact: string; at: number[] } {
  let compact = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!.toLowerCase();
    if (/[\p{L}\p{N}]/u.test(c)) {
      compact += c;
      at.push(i);
    }
  }
  return { compact, at };
}

function locateText(value: string, lines: Line[]): Span | null {
  const want = compactOf(value);
  if (want.length < 2) return null;
  for (const line of lines) {
    const { compact, at } = compactIndex(line.text);
    const i = compact.indexOf(want);
    if (i < 0) continue;
    const start = at[i]!;
    const end = at[i + want.length - 1]! + 1;
    // Whole words only: "AG" inside "AGB" or "12" inside "2012" is no print of the value.
    if (/[\p{L}\p{N}]/u.test(line.text[start - 1] ?? "") || /[\p{L}\p{N}]/u.test(line.text[end] ?? "")) continue;
    return spanOf(line, start, end);
  }
  return null;
}

/** The span printing `value` of a field of `type`, or null. */
export function locateValue(type: string, value: FieldValue, lines: Line[], dateOrder: DateOrder): Span | null {
  if (value === null || value === undefined || Array.isArray(value) || typeof value === "boolean") return null;
  if (type === "date" && typeof value === "string") {
    for (const line of lines) {
      const d = findDates(line.text, dateOrder).find((x) => x.iso === value);
      if (d) return spanOf(line, d.start, d.end);
    }
    return null;
  }
  if (typeof value === "number") {
    for (const line of lines) {
      const a = findAmounts(line.text, dateOrder).find(
        (x) => Math.abs(Math.abs(x.value) - Math.abs(value)) < 0.005 && (x.decimals || Number.isInteger(value)),
      );
      if (a) return spanOf(line, a.start, a.end);
    }
    return null;
  }
  return locateText(String(value), lines);
}
