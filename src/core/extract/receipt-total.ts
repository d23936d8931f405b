/**
 * Evidence for a till receipt's total beyond its sums (extract/receipt.ts checkedTotal uses it):
 * - the rounding line: cash totals rounded to 5 cents print "TOTAL INCL. GST 461.43 / ROUNDING 0.02 / TOTAL
 *   ROUNDED 461.45"; the total paid is the total read plus the rounding, when a total line prints that sum;
 * - what was paid: tendered − change, or the amount on a card's payment line ("VISA 30.42", "AMOUNT USD$ 30.42"),
 *   when a line labelled as a total prints the same amount (the total read was another one: a GST summary's net
 *   amount, the litres of a fuel receipt).
 * Savings, points and item counts are never totals: their lines carry no total label.
 */
import type { Candidate } from "./candidate";
import { fold } from "./fuzzy";
import type { Line } from "./lines";
import { type DateOrder, findDates } from "./normalize";
import { paidLine, tenderedLessChange } from "./tendered";
import { findAmounts } from "./values";

/** A line labelled as the total (not a subtotal, not savings or points or an item count). */
const TOTAL_LABEL =
  /(?<![\p{L}])(total|rounded|grand\s?total|nett?\s?total|amount\s?due|balance\s?due|summe|zu\s?zahlen|totaal|te\s?betalen|net\s?a\s?payer|a\s?payer|ttc|bayar|jumlah)(?![\p{L}])/iu;
const NOT_TOTAL =
  /(?<![\p{L}])(sub-?\s?total|zwischensumme|subtotaal|sous-total|savings?|saved|points?|items?|qty|quantity|excl|tax\s?total|total\s?tax|total\s?(?:vat|gst|tva|btw|mwst))(?![\p{L}])/iu;
/** A loyalty or savings line: its amount (points, a points balance, what was saved) is never the total. */
export const LOYALTY =
  /(?<![\p{L}])(points?|pts|saved|savings?|rewards?|punkte|payback|clubcard|fidelite|spaarpunten)(?![\p{L}])/iu;
/** A rounding adjustment's line. */
const ROUNDING = /(?<![\p{L}])(rounding|round(?:ing)?\s?adj|rnd\s?adj|rundung|arrondi|afronding|pembulatan)/iu;
/** A card's payment line: the amount charged to it. */
export const CARD =
  /^[^\p{L}\p{N}]*(visa|master\s?card|maestro|amex|debit|credit|ec-?\s?(?:cash|karte)|girocard|cb|carte\s?bancaire|pin|eftpos|card|amount)(?![\p{L}])/iu;

const cents = (v: number) => Math.round(v * 100);

/**
 * Amounts printed on lines labelled as a total, in cents. On an OCR page an amount glued to letters OCR made of its
 * currency ("nrM112.40" for "RM112.40") counts too: these amounts only confirm what the payment lines say was paid.
 */
export function printedTotals(lines: Line[], dateOrder: DateOrder): Set<number> {
  const out = new Set<number>();
  for (const line of lines) {
    const text = fold(line.text);
    if (!TOTAL_LABEL.test(text) || NOT_TOTAL.test(text)) continue;
    const printed = line.page.text_source === "ocr" ? line.text.replace(/(\p{L})(?=\d)/gu, "$1 ") : line.text;
    for (const a of findAmounts(printed, dateOrder)) if (a.decimals && a.value > 0) out.add(cents(a.value));
  }
  return out;
}

/** The rounding adjustment printed on the receipt (signed), or null. */
export function roundingOf(lines: Line[], dateOrder: DateOrder): number | null {
  for (const line of lines) {
    const m = ROUNDING.exec(fold(line.text));
    if (!m) continue;
    const a = findAmounts(line.text.slice(m.index + m[0].length), dateOrder).filter((x) => x.decimals);
    const last = a[a.length - 1];
    if (last && Math.abs(last.value) < 1) return last.value;
  }
  return null;
}

/** The amount paid by card (the last card line's amount), or null. */
export function cardPaid(lines: Line[], dateOrder: DateOrder): number | null {
  const paid = paidLine([...lines].reverse(), CARD, dateOrder);
  return paid && paid.value > 0 ? paid.value : null;
}

/**
 * The total paid when the total read is not it: the total read plus the rounding, or the amount paid (in cash or
 * by card), where a total line prints that amount. Null when nothing printed confirms another value.
 */
export function paidTotal(
  read: number | null,
  paid: Array<number | null>,
  lines: Line[],
  dateOrder: DateOrder,
): { value: number; why: string } | null {
  const totals = printedTotals(lines, dateOrder);
  const rounding = roundingOf(lines, dateOrder);
  // Rounding makes a rounder amount (5 cents at least): a total already that round was rounded before.
  if (read !== null && rounding !== null && rounding !== 0 && cents(read) % 5 !== 0) {
    // OCR loses a minus sign ("=0.02" for "-0.02"): either sign, as long as a total line or the payment agrees.
    for (const r of [cents(rounding), -cents(rounding)]) {
      const rounded = cents(read) + r;
      if (rounded % 5 !== 0) continue;
      if (totals.has(rounded) || paid.some((p) => p !== null && cents(p) === rounded))
        return { value: rounded / 100, why: `the total ${read} with the rounding of ${r / 100}, printed as a total` };
    }
  }
  // A rounding line not read: a total line printing the total read rounded to 5 cents is the total paid.
  if (read !== null && cents(read) % 5 !== 0) {
    const rounded = [...totals].find((t) => t % 5 === 0 && Math.abs(t - cents(read)) <= 2);
    if (rounded !== undefined)
      return { value: rounded / 100, why: `the total ${read} rounded to 5 cents, printed as a total` };
  }
  for (const p of paid)
    if (p !== null && totals.has(cents(p)) && (read === null || cents(p) !== cents(read)))
      return { value: p, why: "the amount paid, printed on a total line too" };
  return null;
}

const SUBTOTAL = /(?<![\p{L}])(sub-?\s?total|zwischensumme|subtotaal|sous-total)(?![\p{L}])/iu;

/**
 * The subtotal and the charges printed between it and the total's line (service charge, tax, rounding) added up:
 * what a restaurant bill's total is. A rounding line whose amount was lost rounds the sum to 5 cents. Null when
 * there is no subtotal above the total, or a charge line's amount was lost.
 */
export function chainedTotal(lines: Line[], totalLine: Line, dateOrder: DateOrder): number | null {
  const page = lines.filter((l) => l.page === totalLine.page);
  const end = page.indexOf(totalLine);
  let start = end - 1;
  while (start >= 0 && !SUBTOTAL.test(fold(page[start]!.text))) start--;
  if (start < 0 || end - start > 6) return null;
  let sum = 0;
  let roundLost = false;
  for (const line of page.slice(start, end)) {
    const amounts = findAmounts(line.text, dateOrder).filter((a) => a.decimals);
    const last = amounts[amounts.length - 1];
    if (last) sum += cents(last.value);
    else if (ROUNDING.test(fold(line.text))) roundLost = true;
    else return null;
  }
  return (roundLost ? Math.round(sum / 5) * 5 : sum) / 100;
}

/** Lines of amounts that are not items: sums, tax, savings, payment, rounding. */
const NOT_ITEM =
  /(?<![\p{L}])(sub-?\s?total|total|summe|zwischensumme|totaal|subtotaal|sous-total|tax|vat|gst|sst|mwst|tva|btw|saved|savings|discount|rabatt|remise|korting|rounding|cash|change|tendered|bar|ruckgeld|rendu|especes|contant|wisselgeld|visa|mastercard|debit|card|karte|pin|cb|eftpos|balance|amount|due|zahlen|payer|betalen|items)(?![\p{L}])/iu;

/** The sum of the item lines' last amounts above the total's line, or null when fewer than two were found. */
export function itemsSum(lines: Line[], totalLine: Line | undefined, dateOrder: DateOrder): number | null {
  if (!totalLine) return null;
  const above = lines.filter((l) => l.page === totalLine.page && l.box[3] <= totalLine.box[1] + 1);
  let sum = 0;
  let count = 0;
  for (const line of above) {
    if (NOT_ITEM.test(fold(line.text)) || findDates(line.text, dateOrder).some((d) => d.iso)) continue;
    const amounts = findAmounts(line.text, dateOrder).filter(
      (a) => a.decimals && a.value > 0 && /[.,]\d{2}$/.test(line.text.slice(a.start, a.end)),
    );
    const last = amounts[amounts.length - 1];
    if (!last) continue;
    sum += cents(last.value);
    count++;
  }
  return count >= 2 ? sum / 100 : null;
}

/**
 * Whether the receipt's own arithmetic confirms `total`: tendered − change, a card's payment, the items' sum above
 * the total's line, or subtotal + a tax (stages/extract/receipt-look.ts reads a receipt again when none does).
 */
export function totalHolds(
  total: number,
  totalLine: Line | undefined,
  [sub, tax]: [number | null, number | null],
  lines: Line[],
  dateOrder: DateOrder,
): boolean {
  const { pay } = tenderedLessChange(lines, dateOrder);
  // A tax of 0 makes any subtotal a total: no evidence.
  const taxed = sub !== null && tax !== null && tax > 0 ? (cents(sub) + cents(tax)) / 100 : null;
  const sums = [pay, cardPaid(lines, dateOrder), itemsSum(lines, totalLine, dateOrder), taxed];
  return sums.some((s) => s !== null && cents(s) === cents(total));
}

/** Amounts with cents a receipt prints, at least, before a whole total on it is taken for one whose point was lost. */
const CENTS_PRINTED = 3;

/**
 * A total read without its decimal point ("GRAND TOTAL £13530" for £135.30, a faint photo's point lost in the grain):
 * on a receipt that prints its amounts with cents (three at least, more than its whole amounts of three digits and
 * up: not a rupiah or yen receipt), the last two digits of a whole total of three digits or more are its cents.
 */
export function pointLost(read: number, total: Candidate, lines: Line[], dateOrder: DateOrder): number | null {
  // Digits after it on its line are its cents misread ("RM144 8g"), not a point lost.
  if (!Number.isInteger(read) || read < 100 || /\d/.test(total.match.line.text.slice(total.match.end))) return null;
  let [withCents, whole] = [0, 0];
  for (const line of lines) {
    if (line === total.match.line) continue;
    for (const a of findAmounts(line.text, dateOrder)) {
      if (/[.,]\d{2}-?$/.test(line.text.slice(a.start, a.end))) withCents++;
      else if (!a.decimals && a.value >= 100) whole++;
    }
  }
  return withCents >= CENTS_PRINTED && withCents > whole ? read / 100 : null;
}
