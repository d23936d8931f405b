/**
 * A till receipt's total from its payment lines: cash tendered minus the change given back. On photos and faded
 * thermal paper OCR often loses the total's amount (or its label) while the CASH and CHANGE lines below it stay
 * readable; the largest amount left is then the cash handed over, never the total. When the total was found only
 * by such a fallback (or is the tendered amount itself), tendered − change is taken instead.
 */
import type { Candidate } from "./candidate";
import { infoOf } from "./label-index";
import { type Line, spanOf } from "./lines";
import type { DateOrder } from "./normalize";
import { findAmounts, joinedCents } from "./values";
import type { ProjectSettings } from "../project";
import { printedAmounts, reconcileSums } from "./reconcile";
import { repairOcrSums } from "./ocr-sums";
import { totalBeforePayment } from "./balance-due";

/** What was handed over ("CASH", "TENDERED"; not a till's "CASH CHANGE", the change). */
export const TENDERED =
  /^[^\p{L}\p{N}]*(cash(?: tendered)?(?!\s*change)|tendered|amount tendered|bar|gegeben|especes|contant|efectivo|contanti|tunai)(?![\p{L}])/iu;
export const CHANGE =
  /^[^\p{L}\p{N}]*(?:cash\s*)?(change(?: due)?|ruckgeld|wechselgeld|rendu|monnaie|wisselgeld|cambio|vuelto|resto|kembalian|baki)(?![\p{L}])/iu;

/** Below this a total was not read next to a label (the unlabelled fallbacks score 0.4–0.5). */
const WEAK = 0.5;

interface Paid {
  line: Line;
  value: number;
  start: number;
  end: number;
}

/**
 * Cash tendered minus the change given back (null unless both are read, on different lines, the change the smaller),
 * with the change's line for callers that settle a total on it.
 */
export function tenderedLessChange(lines: Line[], dateOrder: DateOrder): { pay: number | null; change: Paid | null } {
  const tendered = paidLine(lines, TENDERED, dateOrder);
  const change = tendered ? paidLine(lines, CHANGE, dateOrder) : null;
  const pay =
    tendered && change && change.line !== tendered.line && change.value < tendered.value
      ? (Math.round(tendered.value * 100) - Math.round(change.value * 100)) / 100
      : null;
  return { pay, change };
}

/**
 * The last amount with decimals on a line whose text starts with `label`; for a line that is the label alone, the
 * amount of the next line when that line is nothing but an amount (OCR read the label and its amount, far apart on a
 * till roll's row, as two lines: "CASH" / "200.00").
 */
export function paidLine(lines: Line[], label: RegExp, dateOrder: DateOrder): Paid | null {
  for (const line of lines) {
    const head = label.exec(infoOf(line).folded);
    if (!head) continue;
    const own = lastAmount(line, head[0].length, dateOrder);
    if (own) return own;
    if (!LABEL_ALONE.test(line.text.slice(head[0].length))) continue;
    const next = lines.find((l) => l.page === line.page && l.index === line.index + 1);
    const amount = next && AMOUNT_ALONE.test(next.text) ? lastAmount(next, 0, dateOrder) : null;
    if (amount) return amount;
  }
  return null;
}

/** What may follow a payment label alone on its line: marks, a colon. */
const LABEL_ALONE = /^[^\p{L}\p{N}]*$/u;
/** A line that is only an amount, with a currency sign or code before it at most. */
const AMOUNT_ALONE =
  /^[^\p{L}\p{N}]*(?:RM|S\$|US\$|USD|EUR|GBP|SGD|MYR|IDR|Rp\.?|[$€£¥])?\s?\d[\d.,' ]*[^\p{L}\p{N}]*$/u;

function lastAmount(line: Line, from: number, dateOrder: DateOrder): Paid | null {
  const text = line.page.text_source === "ocr" ? joinedCents(line.text) : line.text;
  const amounts = findAmounts(text, dateOrder).filter((a) => a.decimals && a.start >= from && a.value >= 0);
  const last = amounts[amounts.length - 1];
  return last ? { line, value: last.value, start: last.start, end: last.end } : null;
}

/**
 * The total as tendered − change, when the total read is missing or weak; `printed`: every amount printed with
 * decimals (a difference printed elsewhere on the receipt is surer).
 */
export function totalFromPayment(
  best: Candidate | undefined,
  lines: Line[],
  dateOrder: DateOrder,
  printed: number[],
): Candidate | undefined {
  const tendered = paidLine(lines, TENDERED, dateOrder);
  const change = tendered ? paidLine(lines, CHANGE, dateOrder) : null;
  if (!tendered || !change || change.line === tendered.line || change.value >= tendered.value) return best;
  const value = Math.round((tendered.value - change.value) * 100) / 100;
  if (best && best.score >= WEAK && best.match.value !== tendered.value) return best;
  if (best && Math.abs((best.match.value as number) - value) < 0.005) return best;
  const seen = printed.some((p) => Math.abs(Math.abs(p) - value) < 0.005);
  const where = `page ${change.line.page.page_number}, lines ${tendered.line.index + 1} and ${change.line.index + 1}`;
  return {
    match: { value, line: change.line, start: change.start, end: change.end, strength: seen ? 0.6 : 0.5 },
    score: seen ? 0.6 : 0.5,
    reasoning: `amount tendered ${tendered.value} minus change ${change.value}${seen ? ", printed on the receipt too" : ""} (${where})`,
    extraSpans: [spanOf(tendered.line, tendered.start, tendered.end)],
  };
}

/**
 * A total OCR read without its decimal mark ("Totale … 38511" for 385,11): a total candidate whose value is the
 * cents of subtotal + tax, when the total chosen is not that sum, is the sum (the arithmetic confirms every digit).
 */
export function totalWithoutMark(
  best: Candidate | undefined,
  totals: Candidate[],
  subtotal: Candidate | undefined,
  tax: Candidate | undefined,
): Candidate | undefined {
  const [sub, vat] = [subtotal?.match.value, tax?.match.value];
  if (typeof sub !== "number" || typeof vat !== "number" || sub <= 0 || vat <= 0) return best;
  const sum = Math.round((sub + vat) * 100) / 100;
  if (best && Math.abs((best.match.value as number) - sum) < 0.005) return best;
  const cents = Math.round(sum * 100);
  const printed = totals.find((c) => c.match.value === cents && c.reasoning.startsWith("value"));
  if (!printed) return best;
  return {
    ...printed,
    match: { ...printed.match, value: sum },
    reasoning: `${printed.reasoning}, read without its decimal mark: ${cents} is subtotal ${sub} + tax ${vat}`,
  };
}

/**
 * The sums of a document: the best amounts made to add up (reconcileSums) or, on a scan, one amount read again one
 * slip away from what OCR read (repairOcrSums), then the total checked for a lost decimal mark (totalWithoutMark) and a lost reading (totalFromPayment). Changes `best` in place.
 */
export function settleSums(
  project: ProjectSettings,
  classId: string,
  candidates: Record<string, Candidate[]>,
  best: Record<string, Candidate | undefined>,
  lines: Line[],
  dateOrder: DateOrder,
): void {
  const printed = printedAmounts(lines, dateOrder);
  reconcileSums(project, classId, candidates, best, printed);
  // A till receipt's sums have their own rules (receipt.ts); an invoice's misread digits are read again here.
  if (classId !== "receipt") repairOcrSums(project, classId, candidates, best, lines);
  if (!candidates.total_amount) return;
  if (classId !== "receipt")
    best.total_amount = totalBeforePayment(best.total_amount, candidates.total_amount, lines, dateOrder);
  const total = totalWithoutMark(best.total_amount, candidates.total_amount, best.subtotal_amount, best.tax_amount);
  best.total_amount = totalFromPayment(
    total,
    lines,
    dateOrder,
    printed.map((p) => p.value),
  );
}
