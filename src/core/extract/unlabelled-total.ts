/**
 * The total of a document with no total label found: an amount printed with its currency or repeated, else the
 * largest amount (a fallback of fieldCandidates, fields.ts).
 */
import type { ValueMatch } from "./value-match";
import type { Line } from "./lines";
import type { ReadContext } from "./values";
import { findAmounts } from "./values";

const DECIMAL_MARK = /[.,]\d/;
const where = (line: Line) => `page ${line.page.page_number}, line ${line.index + 1}`;

/**
 * With no label: the amount printed with its currency or on several lines (a total and the payment of it, "SUMME"
 * lost by OCR but "357,33 €" and "VISA ****7420 357,33" left), the largest such; else the largest amount.
 */
export function unlabelledTotal(
  lines: Line[],
  ctx: ReadContext,
): { match: ValueMatch; score: number; reasoning: string } | null {
  const seen = new Map<
    number,
    { lines: Set<Line>; currency: boolean; first: { line: Line; start: number; end: number; value: number } }
  >();
  for (const line of lines) {
    // Only amounts with decimals count, and their text ends in a mark and a digit that the line prints as they are
    // (the amount search only blanks dates, times and currency letters out): a line without one holds none.
    if (!DECIMAL_MARK.test(line.text)) continue;
    for (const a of findAmounts(line.text, ctx.dateOrder)) {
      if (!a.decimals) continue;
      const key = Math.abs(a.value);
      const entry = seen.get(key) ?? {
        lines: new Set<Line>(),
        currency: false,
        first: { line, start: a.start, end: a.end, value: a.value },
      };
      entry.lines.add(line);
      entry.currency ||= a.currency !== null;
      seen.set(key, entry);
    }
  }
  const marked = (e: { lines: Set<Line>; currency: boolean }) => e.currency || e.lines.size > 1;
  let best: [number, NonNullable<ReturnType<typeof seen.get>>] | null = null;
  for (const [value, e] of seen)
    if (!best || Number(marked(e)) - Number(marked(best[1])) > 0 || (marked(e) === marked(best[1]) && value > best[0]))
      best = [value, e];
  if (!best) return null;
  const { line, start, end, value } = best[1].first;
  const why = marked(best[1])
    ? "the largest amount printed with its currency or repeated"
    : "largest amount of the document";
  return {
    match: { value, line, start, end, strength: 0.4 },
    score: 0.4,
    reasoning: `${why}, no label found (${where(line)})`,
  };
}
