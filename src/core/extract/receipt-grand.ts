/**
 * A till receipt's total when the total read is a sum the receipt prints beside it, not the amount paid
 * (extract/receipt.ts checkedTotal uses it). GST and VAT receipts print several lines labelled "total":
 * - a net total ("Total Sales (Excluding GST) : 84.00", "SUB-TOTAL (EX) 25.80", "Total Excluded Tax");
 * - the tax summary's table under the total ("GST SUMMARY … Total : 84.00 5.04"): the net and the tax per rate;
 * - the grand total ("Total Sales (Inclusive of GST) : 89.04", "TOTAL 150.00").
 * A total read on a net, subtotal or summary row gives way to the amount on a row labelled as the total above the
 * tax summary (the one the payment confirms, else the last), or else to what was paid when that is more.
 *
 * OCR reads a till roll's label and its amount far apart as separate lines, so the rows here are the page's words
 * grouped by row (lines.ts pageLines, byRow), and an amount printed alone on the row below a label counts as the
 * label's.
 */
import type { Candidate } from "./candidate";
import { fold } from "./fuzzy";
import { type Line, pageLines } from "./lines";
import type { DateOrder } from "./normalize";
import { CHANGE, TENDERED } from "./tendered";
import { findAmounts } from "./values";

/** A tax summary's heading: the table of net and tax amounts per rate printed under the total. */
const TAX_SUMMARY =
  /(?<![\p{L}])(gst|vat|tax|sst|mwst|btw|tva|iva|ppn)\s*(summary|analysis|breakdown|details)(?![\p{L}])/iu;
/** A heading of a summary whose tax word OCR lost ("ST SUMMARY", "SUMMARY"): a short row. */
const SUMMARY = /(?<![\p{L}])(summary|analysis)(?![\p{L}])/iu;
const isSummary = (text: string) => TAX_SUMMARY.test(text) || (SUMMARY.test(text) && text.split(/\s+/).length <= 3);
/** A total before tax. */
const NET =
  /(?<![\p{L}])(excl(?:uding|usive|uded)?|before\s+(?:tax|gst|vat)|ex\.?\s*(?:gst|vat|tax)|ohne\s+mwst|hors\s+taxe|ht)(?![\p{L}])|\(\s*ex\s*\)/iu;
const SUBTOTAL = /(?<![\p{L}])(sub-?\s?total|subttl|zwischensumme|subtotaal|sous-total)(?![\p{L}])/iu;
const TOTAL = /(?<![\p{L}])(total|grand\s?total|amount\s?due|balance\s?due|summe|totaal|jumlah)(?![\p{L}])/iu;
/** Rows labelled "total" that are no grand total: quantities, savings, payment. */
const OTHER_TOTAL =
  /(?<![\p{L}])(qty|quantity|items?|savings?|saved|discount|points?|tender(?:ed)?|cash|change)(?![\p{L}])/iu;
/** A tax named on a total's row: the tax's own total ("Total GST"), unless the total includes it. */
const TAXED = /(?<![\p{L}])(gst|vat|tax|sst|mwst|ppn)(?![\p{L}])/iu;
const INCLUDING = /(?<![\p{L}])(incl?|inclusive|including|includes?|with|inkl|ttc)(?![\p{L}])/iu;
/** A row that is an amount alone (a currency before it at most). */
const LONE_AMOUNT = /^[^\p{L}\p{N}]*(?:rm|myr|s\$|\$|€|£)?\s*-?\d[\d,. ]*\d[^\p{L}\p{N}]*$/iu;

const cents = (v: number) => Math.round(v * 100);

/** The receipt's rows: OCR'd pages regrouped by row, other pages as they are. */
export function receiptRows(lines: Line[]): Line[] {
  const pages = [...new Set(lines.map((l) => l.page))];
  return pages.flatMap((p) => (p.text_source === "ocr" ? pageLines(p, true) : lines.filter((l) => l.page === p)));
}

/** The last amount with cents on `row` after its label, or on the row below when that row is an amount alone. */
function rowAmount(rows: Line[], i: number, dateOrder: DateOrder): number | null {
  const of = (row: Line) => {
    const a = findAmounts(row.text, dateOrder).filter(
      (x) => x.decimals && /[.,]\s?\d{2}/.test(row.text.slice(x.start, x.end)),
    );
    return a.length ? a[a.length - 1]!.value : null;
  };
  const row = rows[i]!;
  const own = of(row);
  if (own !== null) return own;
  // The row below, past a speck OCR read on a row of its own ("ag", ":"), within two line heights.
  const reach = row.box[3] + 2 * (row.box[3] - row.box[1]);
  const next = rows.slice(i + 1).find((r) => r.page === row.page && /\p{N}/u.test(r.text) && r.box[1] <= reach);
  return next && LONE_AMOUNT.test(next.text.trim()) ? of(next) : null;
}

/** Cash tendered − change read on the rows (amounts on the row below their labels count), or null. */
function rowPayment(page: Line[], dateOrder: DateOrder): number | null {
  // The first row so labelled that has an amount: a cash bill's head says "CASH" too.
  const at = (label: RegExp) => {
    for (let i = 0; i < page.length; i++) {
      const value = label.test(fold(page[i]!.text)) ? rowAmount(page, i, dateOrder) : null;
      if (value !== null) return value;
    }
    return null;
  };
  const [tendered, change] = [at(TENDERED), at(CHANGE)];
  return tendered !== null && change !== null && change < tendered ? (cents(tendered) - cents(change)) / 100 : null;
}

/** The row holding `line` (its vertical centre inside the row's box), or null. */
function rowOf(rows: Line[], line: Line): Line | null {
  const cy = (line.box[1] + line.box[3]) / 2;
  return rows.find((r) => r.page === line.page && r.box[1] <= cy && cy <= r.box[3]) ?? null;
}

/**
 * The grand total that replaces `total` (see the module comment), or null when the total read stands. `paid`: the
 * amounts the payment lines give (tendered − change, a card's amount).
 */
export function grandTotal(
  total: Candidate,
  rows: Line[],
  paid: Array<number | null>,
  dateOrder: DateOrder,
): { value: number; why: string } | null {
  const read = total.match.value as number;
  const row = rowOf(rows, total.match.line);
  if (!row) return null;
  const page = rows.filter((r) => r.page === row.page);
  const summary = page.find((r) => isSummary(fold(r.text)));
  const inSummary = summary !== undefined && row.box[1] >= summary.box[1];
  const label = fold(row.text);
  // A net total, a subtotal, the tax's own total, or an amount read with no total label at all (a fallback).
  const net = NET.test(label) || SUBTOTAL.test(label) || (TAXED.test(label) && !INCLUDING.test(label));
  const unlabelled = !TOTAL.test(label);
  if (!inSummary && !net && !unlabelled) return null;
  const totals: number[] = [];
  page.forEach((r, i) => {
    if (summary && r.box[1] >= summary.box[1]) return;
    const text = fold(r.text);
    if (!TOTAL.test(text) || OTHER_TOTAL.test(text) || NET.test(text) || SUBTOTAL.test(text)) return;
    if (TAXED.test(text) && !INCLUDING.test(text)) return;
    // A row printing the amount read beside another is a summary's (net and tax), whatever its heading.
    if (findAmounts(r.text, dateOrder).some((a) => a.decimals && cents(a.value) === cents(read))) return;
    const value = rowAmount(page, i, dateOrder);
    if (value !== null && value > 0 && (!unlabelled || inSummary || net || value > read)) totals.push(value);
  });
  paid = [...paid, rowPayment(page, dateOrder)];
  const where = inSummary ? "the tax summary's" : net ? "a net, subtotal or tax" : "an unlabelled";
  const confirmed = totals.find((t) => paid.some((p) => p !== null && cents(p) === cents(t)));
  if (confirmed !== undefined)
    return { value: confirmed, why: `the total line's amount, confirmed by the payment (${read} was ${where} row)` };
  if (totals.length)
    return { value: totals[totals.length - 1]!, why: `the total line's amount (${read} was ${where} row)` };
  if (unlabelled && !inSummary && !net) return null;
  const more = paid.find((p) => p !== null && p > read);
  return more !== undefined && more !== null ? { value: more, why: `what was paid (${read} was ${where} row)` } : null;
}
