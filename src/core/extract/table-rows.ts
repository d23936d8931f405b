/**
 * Table rows under a header: each line with an amount starts a row, lines without amounts right below a row
 * continue its description, summary lines (subtotal, tax, total) end it; a table left open at a page's end may
 * continue on the next page without a header; a repeated running total is no row.
 */
import type { TableColumn } from "../project";
import { findLabels } from "./labels";
import { type Line, type LineWord, lineHeight, type Span } from "./lines";
import { type DateOrder, parseAmount } from "./normalize";
import { findAmounts } from "./values";
import { cellOf, numberTokens } from "./table-cells";
import { minOf } from "../arrays";
import { type Anchor, headerAnchors, nearestAnchor } from "./table-header";

export interface Row {
  cells: Map<string, LineWord[]>;
  description: string[];
  spans: Span[];
  descriptionX: number;
}

const SUMMARY =
  /^(sub-?\s?total|total|totaal|subtotaal|summe|zwischensumme|gesamt|razem|netto|exclusief|montant|net|tax|vat|mwst|btw|tva|grand|balance|amount due|w tym)(?![\p{L}])/iu;
/** Words that make a line a summary line wherever they stand. */
const SUMMARY_ANYWHERE =
  /(?<![\p{L}])(sub-?\s?total|total|totaal|subtotaal|summe|zwischensumme|gesamtbetrag|grand total|amount due|balance due|razem)(?![\p{L}])/iu;

/**
 * A row line carries an amount right of the description column and starts with its description (or left of it: a
 * position or quantity column), left of the first number column: a line starting further right belongs to a
 * totals block ("Shipping 6.41", "Amount paid 4161.42").
 */
function isRowLine(line: Line, descEnd: number, rowStart: number, dateOrder: DateOrder): boolean {
  if (line.words[0]!.box[0] > rowStart) return false;
  const amounts = findAmounts(line.text, dateOrder).filter((a) => a.decimals || a.currency);
  return amounts.some((a) => {
    const word = line.words.find((w) => w.end > a.start);
    return word !== undefined && word.box[0] >= descEnd;
  });
}

/**
 * Splits a row line into cells: numbers go to the numeric column they sit under; words go to the description when
 * they sit under it or left of the first number column (wide descriptions overflow their header); the rest (units,
 * tax rates, other columns) is dropped.
 */
function rowOf(line: Line, anchors: Anchor[], descLimit: number): Row {
  const row: Row = {
    cells: new Map(),
    description: [],
    spans: [{ line, words: line.words, text: line.text }],
    descriptionX: line.box[0],
  };
  let descriptionX = Infinity;
  const firstLine: string[] = [];
  for (const token of numberTokens(line)) {
    const w = token[token.length - 1]!;
    const text = token.map((t) => t.word.text).join(" ");
    if (/^(\d+([.,]\d+)?\s?)?%$/.test(text) || /^[€$£¥₹]$/.test(text)) continue; // rates, lone symbols
    // Right-aligned numbers sit under their column by their right end.
    const anchor = nearestAnchor({ ...w, box: [token[0]!.box[0], w.box[1], w.box[2], w.box[3]] }, anchors);
    const numeric = /^[-−(]?[€$£¥₹]?\d[\d.,' ]*\)?-?$/.test(text) && parseAmount(text.replace(/[€$£¥₹]/g, "")) !== null;
    if (anchor.column && anchor.column.type !== "string" && numeric) {
      row.cells.set(anchor.column.id, [...(row.cells.get(anchor.column.id) ?? []), ...token]);
    } else if (anchor.column?.type === "string" || (!numeric && w.box[2] <= descLimit)) {
      firstLine.push(text);
      descriptionX = Math.min(descriptionX, token[0]!.box[0]);
    }
  }
  if (firstLine.length) row.description.push(firstLine.join(" "));
  if (descriptionX < Infinity) row.descriptionX = descriptionX;
  return row;
}

/** A continuation line starts near the row's description (not further left, like a footer) and left of the numbers. */
function isContinuation(line: Line, row: Row, firstNumeric: number): boolean {
  const x = line.words[0]!.box[0];
  return x < firstNumeric && x >= row.descriptionX - 2 * lineHeight(line);
}

/**
 * Summary lines (subtotal, tax, total) end a row. Besides common words, the labels of the class's amount fields
 * count when they stand within the first three words of the line ("zzgl. 19% MwSt. 244,25").
 */
export function isSummary(line: Line, summaryLabels: string[]): boolean {
  if (SUMMARY.test(line.text.trim()) || SUMMARY_ANYWHERE.test(line.text)) return true;
  const third = line.words[Math.min(2, line.words.length - 1)]?.end ?? 0;
  return findLabels([line], summaryLabels).some((h) => h.start < third);
}

export function hasAmount(line: Line, dateOrder: DateOrder): boolean {
  return findAmounts(line.text, dateOrder).some((a) => a.decimals || a.currency);
}

/**
 * Rows under one header. Summary lines (with an amount) end the current row; after one, up to two other lines may
 * pass before rows resume (a section subtotal between groups); before the first row up to four header-ish lines
 * may pass. A vertical gap of more than four line heights ends the table (a contract line over the first row).
 */
export function readRows(
  lines: Line[],
  headerIndex: number,
  anchors: Anchor[],
  dateOrder: DateOrder,
  summaryLabels: string[],
  from = headerIndex + 1,
): { rows: Row[]; next: number; open: boolean } {
  const header = lines[headerIndex]!;
  const page = lines[from]?.page;
  const desc = anchors.find((a) => a.column?.type === "string");
  // The first numeric column right of the description (a position or quantity column may stand left of it).
  const numericXs = anchors.filter((a) => a.column && a.column.type !== "string").map((a) => a.x1);
  const firstNumeric = Math.min(minOf(numericXs.filter((x) => !desc || x > desc.x1)), Infinity);
  const descEnd = desc ? Math.min(desc.x2, firstNumeric) : 0;
  const rows: Row[] = [];
  let last: Line = from === headerIndex + 1 ? header : lines[from]!;
  let current: Row | null = null;
  let afterSummary = false;
  let skipped = 0;
  let i = from;
  for (; i < lines.length && lines[i]!.page === page; i++) {
    const line = lines[i]!;
    // An OCR speck between rows ("I", "|") is no line of the page.
    if (line.text.replace(/[^\p{L}\p{N}]/gu, "").length < 2 && !hasAmount(line, dateOrder)) continue;
    if (line.box[1] - last.box[3] > lineHeight(last) * 4) break;
    last = line;
    // The amount first: a description's continuation line has none, and isSummary searches labels.
    if (hasAmount(line, dateOrder) && isSummary(line, summaryLabels)) {
      [afterSummary, current, skipped] = [true, null, 0];
    } else if (
      isRowLine(line, descEnd, Math.min(firstNumeric, desc ? desc.x1 + 4 * lineHeight(line) : Infinity), dateOrder)
    ) {
      current = rowOf(line, anchors, firstNumeric);
      rows.push(current);
      [afterSummary, skipped] = [false, 0];
    } else if (current && isContinuation(line, current, firstNumeric)) {
      current.description.push(line.text);
      current.spans.push({ line, words: line.words, text: line.text });
    } else if (++skipped > (rows.length === 0 ? 4 : afterSummary ? 2 : 0)) break;
  }
  return { rows, next: i, open: rows.length > 0 && !afterSummary };
}

/** Lines at the top of a page (running header, page number) that may stand above a table's continued rows. */
const PAGE_TOP = 8;

/**
 * Where a table left open at the end of a page (no summary line after its last row, none further down that page)
 * continues on the next page without repeating its header: the first row line among the next page's first lines,
 * read under the same columns. -1 when the next page repeats the header (the caller reads it from there), starts
 * with a summary line or has no row near its top.
 */
export function continuationOf(
  lines: Line[],
  next: number,
  anchors: Anchor[],
  columns: TableColumn[],
  dateOrder: DateOrder,
  summaryLabels: string[],
): number {
  const page = lines[next - 1]?.page;
  let j = next;
  for (; j < lines.length && lines[j]!.page === page; j++)
    if (hasAmount(lines[j]!, dateOrder) && isSummary(lines[j]!, summaryLabels)) return -1;
  const desc = anchors.find((a) => a.column?.type === "string");
  const firstNumeric = Math.min(
    minOf(anchors.filter((a) => a.column && a.column.type !== "string" && (!desc || a.x1 > desc.x1)).map((a) => a.x1)),
    Infinity,
  );
  const descEnd = desc ? Math.min(desc.x2, firstNumeric) : 0;
  for (let k = j; k < Math.min(lines.length, j + PAGE_TOP) && lines[k]!.page === lines[j]?.page; k++) {
    const line = lines[k]!;
    if (headerAnchors(line, columns) || (hasAmount(line, dateOrder) && isSummary(line, summaryLabels))) return -1;
    if (isRowLine(line, descEnd, Math.min(firstNumeric, desc ? desc.x1 + 4 * lineHeight(line) : Infinity), dateOrder))
      return k;
  }
  return -1;
}

/**
 * A table continued on the next page may repeat the running total under the repeated header ("Carried forward",
 * "Übertrag", "Report"): a row with only an amount, equal to the sum of every row above it, is that total, not an
 * item.
 */
export function dropCarriedTotals(rows: Row[], columns: TableColumn[]): void {
  const amount = columns.find((c) => c.id === "amount");
  if (!amount) return;
  let sum = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    const value = cellOf(amount, r.cells.get(amount.id)).value;
    const onlyAmount = [...r.cells.keys()].every((id) => id === amount.id);
    if (k >= 2 && onlyAmount && value !== null && Math.abs(value - sum) <= 0.01) {
      rows.splice(k--, 1);
      continue;
    }
    sum += value ?? 0;
  }
}
