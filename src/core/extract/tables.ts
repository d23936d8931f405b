/**
 * Line-item tables from word geometry: a header line names the columns; each following line with an amount starts
 * a row; lines without amounts right below a row continue its description (multi-line descriptions); summary
 * lines (subtotal, tax, total) are skipped, and after one a line that is no row ends the table.
 */
import type { FieldResult, FieldValue } from "../model";
import type { FieldSettings, TableColumn } from "../project";
import { findLabels, type LabelHit } from "./labels";
import { listsMayHold } from "./label-index";
import { boxesOf, type Line, type LineWord, lineHeight, ocrConfidenceOf, type Span } from "./lines";
import { type DateOrder, parseAmount } from "./normalize";
import { findAmounts } from "./values";
import { round } from "./fields";
import { mendRows } from "./row-arithmetic";
import { cellOf, numberTokens } from "./table-cells";
import { tick } from "./gc-pace";
import { minOf, pushAll } from "../arrays";

interface Anchor {
  column: TableColumn | null;
  x1: number;
  x2: number;
}
interface Row {
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
 * headerAnchors per column list and line: the header zone and the table itself both look every line up. Keyed by
 * the (few) column lists first, so a line costs one weak entry, not a Map of its own (43,000 Maps for a document of
 * a thousand pages).
 */
const anchorMemo = new WeakMap<TableColumn[], WeakMap<Line, Anchor[] | null>>();

/** Column anchors of a header line, or null when fewer than two of the table's columns are named there. */
function headerAnchors(line: Line, columns: TableColumn[]): Anchor[] | null {
  let byLine = anchorMemo.get(columns);
  if (!byLine) anchorMemo.set(columns, (byLine = new WeakMap()));
  let anchors = byLine.get(line);
  if (anchors === undefined) {
    tick();
    byLine.set(line, (anchors = findHeaderAnchors(line, columns)));
  }
  return anchors;
}

/** The columns' label lists, one array per column list (listsMayHold keeps its index per array). */
const labelLists = new WeakMap<TableColumn[], string[][]>();
function labelListsOf(columns: TableColumn[]): string[][] {
  let lists = labelLists.get(columns);
  if (!lists) labelLists.set(columns, (lists = columns.map((c) => c.labels)));
  return lists;
}

function findHeaderAnchors(line: Line, columns: TableColumn[]): Anchor[] | null {
  // A header names two columns or more: most lines of a long document name none, and are passed over here
  // without the label search's allocations (a 999-page document's lines made ~250 MB of garbage).
  if (listsMayHold(line, labelListsOf(columns), 2) < 2) return null;
  const hits: Array<LabelHit & { column: TableColumn }> = [];
  for (const column of columns) for (const h of findLabels([line], column.labels)) hits.push({ ...h, column });
  // Longer (more specific) labels first; then each column keeps its best-ranked hit.
  hits.sort((a, b) => b.end - b.start - (a.end - a.start) || a.rank - b.rank);
  const kept: typeof hits = [];
  for (const h of hits) if (!kept.some((k) => k.start < h.end && k.end > h.start)) kept.push(h);
  const byColumn = new Map<string, (typeof hits)[number]>();
  for (const h of kept.sort((a, b) => a.rank - b.rank)) if (!byColumn.has(h.column.id)) byColumn.set(h.column.id, h);
  const numeric = [...byColumn.values()].filter((h) => h.column.type !== "string").length;
  if (byColumn.size < 2 || numeric < 1) return null;
  const used = [...byColumn.values()];
  const anchors: Anchor[] = used.map((h) => ({ column: h.column, x1: h.box[0], x2: h.box[2] }));
  // A word right after a label, a space apart, finishes that header cell ("Precio unitario", "Prix unitaire HT"):
  // right-aligned values sit under its end. Other header words (tax rate, discount...) name columns we do not
  // extract, and still claim the values under them.
  const space = 0.6 * lineHeight(line);
  let previous: Anchor | null = null;
  for (const w of line.words) {
    const hit = used.find((h) => w.start < h.end && w.end > h.start);
    if (hit) {
      previous = anchors[used.indexOf(hit)]!;
      continue;
    }
    if (previous?.column && w.box[0] - previous.x2 <= space) {
      previous.x2 = w.box[2];
      continue;
    }
    previous = { column: null, x1: w.box[0], x2: w.box[2] };
    anchors.push(previous);
  }
  return anchors;
}

function nearestAnchor(word: LineWord, anchors: Anchor[]): Anchor {
  const [x1, , x2] = word.box;
  const dist = (a: Anchor) =>
    (x2 < a.x1 ? a.x1 - x2 : x1 > a.x2 ? x1 - a.x2 : 0) + Math.abs((x1 + x2) / 2 - (a.x1 + a.x2) / 2) * 0.01;
  return anchors.reduce((best, a) => (dist(a) < dist(best) ? a : best));
}

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
function readRows(
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
    if (isSummary(line, summaryLabels) && hasAmount(line, dateOrder)) {
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
function continuationOf(
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
    if (isSummary(lines[j]!, summaryLabels) && hasAmount(lines[j]!, dateOrder)) return -1;
  const desc = anchors.find((a) => a.column?.type === "string");
  const firstNumeric = Math.min(
    minOf(anchors.filter((a) => a.column && a.column.type !== "string" && (!desc || a.x1 > desc.x1)).map((a) => a.x1)),
    Infinity,
  );
  const descEnd = desc ? Math.min(desc.x2, firstNumeric) : 0;
  for (let k = j; k < Math.min(lines.length, j + PAGE_TOP) && lines[k]!.page === lines[j]?.page; k++) {
    const line = lines[k]!;
    if (headerAnchors(line, columns) || (isSummary(line, summaryLabels) && hasAmount(line, dateOrder))) return -1;
    if (isRowLine(line, descEnd, Math.min(firstNumeric, desc ? desc.x1 + 4 * lineHeight(line) : Infinity), dateOrder))
      return k;
  }
  return -1;
}

/**
 * Lines of line-item table headers, plus the header lines wrapped under them (lines before the first row): a label
 * there ("MwSt.", "Total") names a column, and what stands under it is a line item, not the document's value.
 */
export function tableHeaderZone(field: FieldSettings, lines: Line[], dateOrder: DateOrder): Set<Line> {
  const zone = new Set<Line>();
  for (let i = 0; i < lines.length; i++) {
    if (!headerAnchors(lines[i]!, field.columns ?? [])) continue;
    zone.add(lines[i]!);
    for (
      let j = i + 1;
      j < Math.min(lines.length, i + 4) && lines[j]!.page === lines[i]!.page && !hasAmount(lines[j]!, dateOrder);
      j++
    )
      zone.add(lines[j]!);
  }
  return zone;
}

/**
 * A table continued on the next page may repeat the running total under the repeated header ("Carried forward",
 * "Übertrag", "Report"): a row with only an amount, equal to the sum of every row above it, is that total, not an
 * item.
 */
function dropCarriedTotals(rows: Row[], columns: TableColumn[]): void {
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

/** Extracts a table field; rows carry the column ids as keys. */
export function extractTable(
  field: FieldSettings,
  lines: Line[],
  dateOrder: DateOrder,
  reviewThreshold: number,
  summaryLabels: string[] = [],
): FieldResult {
  const columns = field.columns ?? [];
  const rows: Row[] = [];
  let reason = "";
  for (let i = 0; i < lines.length; i++) {
    const anchors = headerAnchors(lines[i]!, columns);
    if (!anchors) continue;
    const header = lines[i]!;
    const found = readRows(lines, i, anchors, dateOrder, summaryLabels);
    if (!found.rows.length) continue;
    reason ||= `table under header "${header.text}" (page ${header.page.page_number}, line ${header.index + 1})`;
    pushAll(rows, found.rows);
    // The table goes on across page breaks where the next page continues its rows without a header of its own.
    let more = found;
    for (
      let k = more.open ? continuationOf(lines, more.next, anchors, columns, dateOrder, summaryLabels) : -1;
      k >= 0;
      k = more.open ? continuationOf(lines, more.next, anchors, columns, dateOrder, summaryLabels) : -1
    ) {
      more = readRows(lines, i, anchors, dateOrder, summaryLabels, k);
      pushAll(rows, more.rows);
    }
    i = more.next - 1;
  }
  dropCarriedTotals(rows, columns);
  if (!rows.length) {
    return {
      name: field.name,
      value: null,
      confidence: 0,
      bounding_boxes: [],
      reasoning: "no table found",
      review_required: field.required,
      is_confirmed: null,
    };
  }
  const value = rows.map((r) => {
    const out: Record<string, FieldValue> = {};
    for (const c of columns)
      out[c.id] = c.type === "string" ? r.description.join("\n") || null : cellOf(c, r.cells.get(c.id)).value;
    return out;
  });
  // OCR damage (a lost decimal separator, a lost quantity) mended by each row's arithmetic; text layers are exact.
  const ocr = rows.map((r, k) => [r, k] as const).filter(([r]) => r.spans[0]!.line.page.text_source === "ocr");
  const cell = (r: Row, id: string) => {
    const c = columns.find((col) => col.id === id);
    return c ? cellOf(c, r.cells.get(id)) : { value: null, text: null };
  };
  const mended = mendRows(
    ocr.map(([, k]) => value[k]!),
    ocr.map(([r]) => ({ quantity: cell(r, "quantity"), unit_price: cell(r, "unit_price"), amount: cell(r, "amount") })),
    columns.some((c) => c.id === "quantity"),
  );
  if (mended) reason += `; ${mended} row(s) with OCR damage mended by quantity × unit price = amount, or left unread`;
  const spans = rows.flatMap((r) => r.spans);
  const complete = value.filter((r) => Object.values(r).filter((v) => v !== null).length >= 2).length / value.length;
  const confidence = round(0.85 * complete * (0.4 + 0.6 * ocrConfidenceOf(spans)));
  return {
    name: field.name,
    value,
    confidence,
    bounding_boxes: boxesOf(spans),
    reasoning: `${rows.length} row(s) from the ${reason}`,
    review_required: confidence < reviewThreshold,
    is_confirmed: null,
  };
}
