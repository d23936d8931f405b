/**
 * Line items without a readable table header: the arithmetic stands in for the header. A run of consecutive lines
 * that each end in an amount is a candidate table; it is taken only when its rows add up to one of the document's
 * sums (the subtotal, total − tax, or the total).
 *
 * A run may be a flat list of rows, or groups: a heading row carrying the group's amount, and indented rows under it
 * that break that amount down (charges, credits, tax; a statement's "service / charges / VAT" detail). Rows at the
 * leftmost indentation are the items when every group's amount is the sum of its indented rows; a line that prints
 * only an amount (its description unread) counts as a heading. Tax and total words end a run at the heading level
 * only: indented under a group, "VAT 0.00" is part of the breakdown.
 */
import type { FieldResult, FieldValue } from "../model";
import type { FieldSettings } from "../project";
import { boxesOf, type Line, lineHeight, ocrConfidenceOf, type Span } from "./lines";
import type { DateOrder } from "./normalize";
import { findAmounts } from "./values";
import { round } from "./fields";
import { hasAmount, isSummary } from "./table-rows";
import { minOf } from "../arrays";

interface RunLine {
  line: Line;
  amount: number /** Left edge of the text before the amount; null when it prints only the amount. */;
  x: number | null;
  before: string;
  amounts: number[];
}

/** The line's closing amount (nothing but a currency after it), with the text before its amounts. */
function closingAmount(line: Line, dateOrder: DateOrder): RunLine | null {
  const amounts = findAmounts(line.text, dateOrder).filter((a) => a.decimals || a.currency);
  const last = amounts[amounts.length - 1];
  if (!last || line.text.slice(last.end).replace(/[€$£¥₹\s]|[A-Z]{3}/g, "") !== "") return null;
  const before = line.text
    .slice(0, amounts[0]!.start)
    .replace(/[€$£¥₹]\s*$/, "")
    .trim();
  const first = line.words.find((w) => w.end > 0 && w.start < amounts[0]!.start && /[\p{L}\p{N}]/u.test(w.word.text));
  return {
    line,
    amount: last.value,
    x: before && first ? first.box[0] : null,
    before,
    amounts: amounts.map((a) => a.value),
  };
}

/** Runs of consecutive lines ending in an amount, on one page, without a wide vertical gap. */
function runsOf(lines: Line[], dateOrder: DateOrder, summaryLabels: string[]): RunLine[][] {
  const runs: RunLine[][] = [];
  let run: RunLine[] = [];
  const close = () => {
    if (run.length) runs.push(run);
    run = [];
  };
  for (const line of lines) {
    const prev = run[run.length - 1]?.line;
    if (prev && (prev.page !== line.page || line.box[1] - prev.box[3] > 4 * lineHeight(prev))) close();
    const r = closingAmount(line, dateOrder);
    if (!r) {
      close();
      continue;
    }
    if (hasAmount(line, dateOrder) && isSummary(line, summaryLabels)) {
      // A summary word inside a group (indented under its heading) is part of the breakdown; otherwise it ends the run.
      const head = run.find((l) => l.x !== null)?.x ?? null;
      // Indented by a few characters; a totals block far to the right is no breakdown.
      const indent = head !== null && r.x !== null ? (r.x - head) / lineHeight(line) : 0;
      if (!(run.length && indent > 0.5 && indent <= 3)) {
        close();
        continue;
      }
    }
    run.push(r);
  }
  close();
  return runs;
}

/** The items of a run: its heading rows when the run is grouped and every group adds up, else every row. */
function itemsOf(run: RunLine[]): RunLine[] {
  const xs = run.map((r) => r.x).filter((x): x is number => x !== null);
  const tolerance = 0.5 * minOf(run.map((r) => lineHeight(r.line)));
  const left = minOf(xs);
  const isHead = (r: RunLine) => r.x === null || r.x - left <= tolerance;
  if (!xs.length || run.every(isHead)) return run;
  const heads: RunLine[] = [];
  let children = 0;
  let sum = 0;
  const groupAddsUp = () =>
    heads.length === 0 || children === 0 || Math.abs(heads[heads.length - 1]!.amount - sum) <= 0.02;
  for (const r of run) {
    if (isHead(r)) {
      if (!groupAddsUp()) return run;
      heads.push(r);
      [children, sum] = [0, 0];
    } else {
      children++;
      sum += r.amount;
    }
  }
  return groupAddsUp() && heads.length ? heads : run;
}

function rowValue(field: FieldSettings, r: RunLine): Record<string, FieldValue> {
  // A whole number standing alone right before the amounts is the quantity; the rest before them describes.
  const qty = /(?:^|\s)(\d{1,4})\s*$/.exec(r.before);
  const description = (qty ? r.before.slice(0, qty.index) : r.before).trim() || null;
  const unit = r.amounts.length > 1 ? r.amounts[r.amounts.length - 2]! : null;
  const cell: Record<string, FieldValue> = {
    description,
    amount: r.amount,
    unit_price: unit,
    quantity: qty ? Number(qty[1]) : null,
  };
  return Object.fromEntries((field.columns ?? []).map((c) => [c.id, cell[c.id] ?? null]));
}

/**
 * The headerless table of `lines` whose items add up to one of `targets` (the run with the most items when several
 * do); null when none does. See the module comment.
 */
export function headerlessTable(
  field: FieldSettings,
  lines: Line[],
  dateOrder: DateOrder,
  reviewThreshold: number,
  summaryLabels: string[],
  targets: number[],
): FieldResult | null {
  if (!targets.length || !(field.columns ?? []).some((c) => c.id === "amount")) return null;
  let best: { items: RunLine[]; grouped: boolean } | null = null;
  for (const run of runsOf(lines, dateOrder, summaryLabels)) {
    const items = itemsOf(run);
    const sum = items.reduce((s, r) => s + r.amount, 0);
    if (!targets.some((t) => Math.abs(Math.abs(t) - sum) <= 0.02)) continue;
    if (!best || items.length > best.items.length) best = { items, grouped: items.length < run.length };
  }
  if (!best) return null;
  const { items, grouped } = best;
  const spans: Span[] = items.map((r) => ({ line: r.line, words: r.line.words, text: r.line.text }));
  const confidence = round(0.7 * (0.4 + 0.6 * ocrConfidenceOf(spans)));
  const where = `page ${items[0]!.line.page.page_number}, line ${items[0]!.line.index + 1}`;
  const how = grouped ? "group headings whose amounts their indented rows break down" : "rows ending in an amount";
  return {
    name: field.name,
    value: items.map((r) => rowValue(field, r)),
    confidence,
    bounding_boxes: boxesOf(spans),
    reasoning: `${items.length} row(s) from ${where}: ${how}; no table header was read, their amounts add up to the document's sums`,
    review_required: confidence < reviewThreshold,
    is_confirmed: null,
  };
}
