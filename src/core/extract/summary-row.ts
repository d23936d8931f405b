/**
 * Totals from a table's summary row: "Razem:  10 781,22  X  2 048,44  12 829,66" under a table whose columns read
 * "Wartość netto | Stawka VAT | Kwota VAT | Wartość brutto" (Polish invoices; also "Total" rows under "Net amount |
 * VAT amount | Gross amount" columns). The row's label names no field (the total's "Razem" would take its first
 * amount, the net); each amount takes the field its column's header names, by the fields' own labels. Headers are
 * often stacked ("Wartość" over "netto"): a column's header is the words of the header lines over the amount, read
 * top to bottom, found by walking up past the table's rows (lines with digits in the column).
 */
import type { FieldSettings } from "../project";
import { type Line, lineHeight, xOverlap } from "./lines";
import { fold } from "./fuzzy";
import { labelRegex } from "./label-regex";
import { findAmounts, type ReadContext } from "./values";
import { type Candidate, where } from "./candidate";
import type { Box } from "../model";

/** Words that open a summary row (data: the totals row of tables in the languages invoices use). */
const ROW_WORDS = [
  "razem",
  "ogółem",
  "total",
  "totals",
  "totaal",
  "totale",
  "totalt",
  "summe",
  "gesamt",
  "suma",
  "celkem",
  "yhteensä",
  "i alt",
  "sum",
];
const ROW_RE = new RegExp(`(?<![\\p{L}\\p{N}])(${ROW_WORDS.map(fold).join("|")})(?![\\p{L}])`, "iu");

interface Cell {
  value: number;
  header: string;
  line: Line;
  start: number;
  end: number;
}

const memo = new WeakMap<Line[], Cell[][]>();

/** Candidates for amount field `field` from the summary rows' columns whose header holds one of its labels. */
export function summaryRowCandidates(field: FieldSettings, lines: Line[], ctx: ReadContext): Candidate[] {
  let rows = memo.get(lines);
  if (!rows) memo.set(lines, (rows = summaryRows(lines, ctx)));
  const own = field.hints.labels;
  const foreign = ctx.foreignLabels ?? [];
  const out: Candidate[] = [];
  for (const row of rows) {
    // A row counts when two of its columns name different fields: one amount under "Total" is a table's own sum.
    const named = row.filter((c) => longest(c.header, own) > 0 || longest(c.header, foreign) > 0);
    if (named.length < 2) continue;
    for (const c of row) {
      const mine = longest(c.header, own);
      if (!mine || longest(c.header, foreign) > mine) continue;
      out.push({
        match: { value: c.value, line: c.line, start: c.start, end: c.end, strength: 0.95 },
        score: 0.95,
        reasoning: `column "${c.header}" of the summary row "${c.line.text.slice(0, 24).trim()}" (${where(c.line)})`,
      });
    }
  }
  return out;
}

/** Length of the longest of `labels` found as words in `header` (0: none). */
function longest(header: string, labels: string[]): number {
  let best = 0;
  const folded = fold(header);
  for (const l of labels) if (l.length > best && labelRegex(l).test(folded)) best = l.length;
  return best;
}

/** Every summary row with two or more amounts, each amount with its column's header text. */
function summaryRows(lines: Line[], ctx: ReadContext): Cell[][] {
  const out: Cell[][] = [];
  for (const line of lines) {
    const folded = fold(line.text);
    const m = ROW_RE.exec(folded);
    if (!m) continue;
    const amounts = findAmounts(line.text, ctx.dateOrder).filter((a) => a.start >= m.index + m[0].length);
    if (amounts.length < 2 || line.text.slice(0, amounts[0]!.start).trim().split(/\s+/).length > 4) continue;
    const cells: Cell[] = [];
    for (const a of amounts) {
      const words = line.words.filter((w) => w.start < a.end && w.end > a.start);
      if (!words.length) continue;
      const box: Box = [words[0]!.box[0], words[0]!.box[1], words.at(-1)!.box[2], words[0]!.box[3]];
      const header = headerOver(line, box, lines);
      if (header) cells.push({ value: a.value, header, line, start: a.start, end: a.end });
    }
    if (cells.length >= 2) out.push(cells);
  }
  return out;
}

/**
 * The header words over the column `box` of `row`: walking up the page, lines with a digit in the column are the
 * table's rows (passed), lines with nothing there are other columns' (passed), and the first lines with words of
 * letters there, one right above the other, are the header, read top to bottom. At most 60 lines up.
 */
function headerOver(row: Line, box: Box, lines: Line[]): string {
  const above = lines
    .filter((l) => l.page === row.page && l.box[3] <= row.box[1] + lineHeight(row) * 0.3)
    .sort((a, b) => b.box[1] - a.box[1])
    .slice(0, 60);
  const parts: string[] = [];
  let lastTop = Number.POSITIVE_INFINITY;
  for (const line of above) {
    const words = line.words.filter((w) => xOverlap(w.box, box) > 0);
    if (!words.length) continue;
    const text = words.map((w) => w.word.text).join(" ");
    if (parts.length && (/\d/.test(text) || lastTop - line.box[3] > lineHeight(line) * 1.5)) break;
    if (/\d/.test(text)) continue;
    parts.unshift(text);
    lastTop = line.box[1];
    if (parts.length === 3) break;
  }
  return parts.join(" ");
}
