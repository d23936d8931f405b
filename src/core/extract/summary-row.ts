/**
 * Totals from a table's summary row: "Razem:  10 781,22  X  2 048,44  12 829,66" under a table whose columns read
 * "Wartość netto | Stawka VAT | Kwota VAT | Wartość brutto" (Polish invoices; also "Total" rows under "Net amount |
 * VAT amount | Gross amount" columns). The row's label names no field (the total's "Razem" would take its first
 * amount, the net); each amount takes the field its column's header names, by the fields' own labels. Headers are
 * often stacked ("Wartość" over "netto"): a column's header is the words of the header lines over the amount, read
 * top to bottom, found by walking up past the table's rows (lines with digits in the column).
 */
import type { FieldSettings } from "../project";
import { type Line, levelY, lineHeight, xOverlap } from "./lines";
import { fold } from "./fuzzy";
import { labelRegex } from "./label-regex";
import { infoOf } from "./label-index";
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
  /** The column's header, folded, its words' marks dropped ("Wartosc netto"). */
  header: string;
  /** The row's label as printed ("Razem"). */
  label: string;
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
    // A column named by a row word alone ("Total" over a line table's amounts, in its "Total" row) is the table's own
    // sum: a summary row has a column a field's specific label names ("Wartość netto", "VAT amount").
    if (!row.some((c) => specific(c.header, own) || specific(c.header, foreign))) continue;
    for (const c of row) {
      const mine = longest(c.header, own);
      if (!mine || longest(c.header, foreign) > mine) continue;
      out.push({
        match: { value: c.value, line: c.line, start: c.start, end: c.end, strength: 0.95 },
        score: 0.95,
        reasoning: `column "${c.header}" of the summary row "${c.label}" (${where(c.line)})`,
      });
    }
  }
  return out;
}

/**
 * Length of the longest of `labels` found as words in `header` (0: none). Remembered per label list and header: each
 * amount field asks for every cell of every row, with its own labels and the other amount fields' (the same lists).
 * The label lists are a project's; the headers a document's, so each list's memo is bounded (HEADERS_REMEMBERED).
 */
const HEADERS_REMEMBERED = 2048;
const longestMemo = new WeakMap<string[], Map<string, number>>();
function longest(header: string, labels: string[]): number {
  let known = longestMemo.get(labels);
  if (!known || known.size >= HEADERS_REMEMBERED) longestMemo.set(labels, (known = new Map()));
  let best = known.get(header);
  if (best === undefined) {
    best = 0;
    for (const l of labels) if (l.length > best && labelRegex(l).test(header)) best = l.length;
    known.set(header, best);
  }
  return best;
}

/** Whether a label of `labels` that is no summary-row word is in `header` (remembered as `longest` is). */
const specificMemo = new WeakMap<string[], Map<string, boolean>>();
function specific(header: string, labels: string[]): boolean {
  let known = specificMemo.get(labels);
  if (!known || known.size >= HEADERS_REMEMBERED) specificMemo.set(labels, (known = new Map()));
  let found = known.get(header);
  if (found === undefined) known.set(header, (found = unlikeRows(labels).some((l) => labelRegex(l).test(header))));
  return found;
}

/**
 * The labels that are no summary-row word ("Total" is one, "Total VAT" too), per label list (a project's settings):
 * folding and testing every label of the field and of the other amount fields again for each cell of each row was
 * the largest single cost of extracting a born-digital invoice in a fresh process (~4% of the main thread).
 */
const unlikeRowsMemo = new WeakMap<string[], string[]>();
function unlikeRows(labels: string[]): string[] {
  let kept = unlikeRowsMemo.get(labels);
  if (!kept) unlikeRowsMemo.set(labels, (kept = labels.filter((l) => !ROW_RE.test(fold(l)))));
  return kept;
}

/**
 * Every summary row with two or more amounts, each amount with its column's header text. OCR reads a table's columns
 * as blocks of their own: the row goes on in the lines right of the label's at its height.
 */
function summaryRows(lines: Line[], ctx: ReadContext): Cell[][] {
  const out: Cell[][] = [];
  // The lines over each row line, sorted once for all its amounts' columns.
  const above = new Map<Line, Line[]>();
  for (const line of lines) {
    // The line's folded text as the label search keeps it (label-index.ts), not folded again per document.
    const m = ROW_RE.exec(infoOf(line).folded);
    if (!m || line.text.slice(0, m.index).trim().split(/\s+/).length > 3) continue;
    const labelEnd = m.index + m[0].length;
    const cells: Cell[] = [];
    const label = line.text.slice(m.index, labelEnd);
    for (const part of [line, ...rowRight(line, labelEnd, lines)]) {
      const from = part === line ? labelEnd : 0;
      for (const a of findAmounts(part.text, ctx.dateOrder)) {
        if (a.start < from) continue;
        const words = part.words.filter((w) => w.start < a.end && w.end > a.start);
        if (!words.length) continue;
        const box: Box = [words[0]!.box[0], words[0]!.box[1], words.at(-1)!.box[2], words[0]!.box[3]];
        let over = above.get(part);
        if (!over) above.set(part, (over = linesAbove(part, lines)));
        const header = headerOver(box, over);
        if (header) cells.push({ value: a.value, header, label, line: part, start: a.start, end: a.end });
      }
    }
    if (cells.length >= 2) out.push(cells);
  }
  return out;
}

/** Lines right of `line`'s label end on the same row (their vertical centres within half a line of its own). */
function rowRight(line: Line, labelEnd: number, lines: Line[]): Line[] {
  const x = line.words.find((w) => w.end >= labelEnd)?.box[2] ?? line.box[2];
  const cy = (l: Line) => levelY(l.page, (l.box[0] + l.box[2]) / 2, (l.box[1] + l.box[3]) / 2);
  const centre = cy(line);
  return lines.filter(
    (l) => l !== line && l.page === line.page && l.box[0] > x && Math.abs(cy(l) - centre) <= lineHeight(line) * 0.5,
  );
}

/** The 60 lines nearest above `row` on its page, nearest first. */
const linesAbove = (row: Line, lines: Line[]) =>
  lines
    .filter((l) => l.page === row.page && l.box[3] <= row.box[1] + lineHeight(row) * 0.3)
    .sort((a, b) => b.box[1] - a.box[1])
    .slice(0, 60);

/**
 * The header words over the column `box` of a row (`above`: linesAbove the row): walking up the page, lines with a
 * digit are the table's rows (passed), lines with nothing in the column are other columns' (passed), and the first
 * lines with words there, one right above the other, are the header, read top to bottom. At most 60 lines up.
 */
function headerOver(box: Box, above: Line[]): string {
  const parts: string[] = [];
  let lastTop = Number.POSITIVE_INFINITY;
  for (const line of above) {
    const words = line.words.filter((w) => xOverlap(w.box, box) > 0);
    if (!words.length) continue;
    const text = fold(words.map((w) => w.word.text.replace(/[^\p{L}\p{N}.%-]/gu, "")).join(" ")).trim();
    // A line with a digit is a row of the table or of its sums, whatever stands in this column ("Koszty dodatkowe:
    // 1,00" with only its label over the column).
    const row = /\d/.test(line.text);
    if (parts.length && (row || lastTop - line.box[3] > lineHeight(line) * 1.5)) break;
    if (row || !text) continue;
    parts.unshift(text);
    lastTop = line.box[1];
    if (parts.length === 3) break;
  }
  return parts.join(" ");
}
