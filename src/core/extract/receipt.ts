/**
 * What a till receipt is read for, settled once every field has its candidates (extract stage, receipts only):
 * - the merchant: the name printed at the top, before the address, phone, tax number, date and items; the
 *   largest type among those first lines, never a title ("TAX INVOICE", "RECEIPT"), a street, a store number or a
 *   cashier line. OCR of a till roll reads item lines with tall junk boxes, so the letterhead rule for pages
 *   (the largest type of the top 30%) can land on an item there;
 * - the total checked by the receipt's own arithmetic: tendered − change, the items' sum, subtotal + tax. A total
 *   that none of them confirms gives way to a value two of them agree on, to tendered − change when it was read
 *   without decimals (a lost amount, "GRAND TOTAL … 4"), and to the value it contains when it reads as one with a
 *   currency sign taken for a digit ("$68.90" read "868.90"); a whole total on a receipt that prints cents lost its
 *   decimal point ("£13530" for £135.30);
 * - what the harder receipts need (receipt-merchant.ts, receipt-total.ts, receipt-date.ts): a name ending at its
 *   legal form, the registered name under a logo's brand, the footer's name, no address for a name; the rounded
 *   total and the amount paid printed as a total; a bill's subtotal and charges; a date whose marks OCR misread.
 */
import type { Candidate } from "./candidate";
import { fold } from "./fuzzy";
import { type Line, lineHeight } from "./lines";
import { type DateOrder, findDates } from "./normalize";
import { afterSpeck } from "./specks";
import { tenderedLessChange } from "./tendered";
import { findAmounts } from "./values";
import {
  endAtLegalForm,
  footerMerchant,
  isAddressLine,
  isRegistration,
  ocrName,
  registeredAs,
  withLegalTail,
} from "./receipt-merchant";
import { cardPaid, chainedTotal, itemsSum, LOYALTY, paidTotal, pointLost } from "./receipt-total";
import { labelledDate, misreadDate } from "./receipt-date";
import { grandTotal, receiptRows } from "./receipt-grand";

/** A vendor found this sure (a legal form with the seller's tax number beside it) stands against the head's name. */
const SURE_NAME = 0.55;
/** Lines of the head looked at for the merchant. */
const HEAD_LINES = 6;
/** What a document calls itself, or a greeting: no merchant. */
const TITLE =
  /^(?:simplified\s+)?(?:tax\s+invoice|invoice|receipt|sales\s+receipt|cash\s+(?:sale|receipt)|kassenbon|kassenbeleg|quittung|rechnung|bon|ticket|ticket\s+de\s+caisse|reçu|recu|facture(?:\s+simplifiee)?|factura(?:\s+simplificada)?|kassabon|kwitantie|scontrino|welcome|willkommen|bienvenue|welkom|copy|duplicate)\b/iu;
/** A heading naming the document ("OYO PAYMENT RECEIPT", "ACME TAX INVOICE"): the name is found elsewhere. */
const ENDS_TITLE = /(?<![\p{L}])(receipt|invoice|rechnung|quittung|kassenbon|facture|factura|ticket|bon)\s*$/iu;
/** The lines that end a till's head: address, contact, tax registration, till and store numbers. */
const HEAD_END =
  /(?<![\p{L}])(tel|phone|fax|vat|gst|sst|abn|tva|btw|mwst|ust|uid|siret|npwp|tax\s?id|reg\s?no|store\s?(?:#|no)|reg\s?\d|cashier|kassierer|caissier|operator|www\.|http|@)/iu;
/**
 * A street line: starts with a house number, carries a street word, or a German/Dutch compound ending in one before a
 * house number ("Hauptstraße 27", "Kalverstraat 12": read with the German model the ß stays and no word stands alone).
 */
const STREET =
  /^\d{1,5}[a-z]?\s|(?<![\p{L}])(st|street|str|strasse|straße|rd|road|ave|avenue|blvd|lane|ln|way|rue|avenue|bd|jalan|jln|straat|laan|weg|plein|via|calle|piazza|platz)(?![\p{L}])\.?|\p{L}{2,}(strasse|straße|str\.|weg|gasse|allee|platz|damm|ring|straat|laan|plein|gracht|kade)\s*\d{1,4}[a-z]?(?![\p{L}\p{N}])/iu;

export interface ReceiptFields {
  vendor_name?: Candidate;
  invoice_date?: Candidate;
  total_amount?: Candidate;
  subtotal_amount?: Candidate;
  tax_amount?: Candidate;
}

/** Settles the merchant and the total of a till receipt in `best` (changed in place). */
export function settleReceipt(best: ReceiptFields, lines: Line[], dateOrder: DateOrder): void {
  if ("vendor_name" in best) {
    const merchant = merchantOf(lines, dateOrder);
    const found = best.vendor_name;
    // An address line, or a company named below the receipt's title while the head names one above it (the
    // customer of a cash bill, a column header's "Inc."), never beats the head's name, however sure its rule was.
    const weak =
      !found ||
      found.score < SURE_NAME ||
      amongItems(found.match.line, lines, dateOrder) ||
      isAddress(found) ||
      isRegistration(found.match.line.text) ||
      (merchant !== undefined && belowTitle(found.match.line, merchant.match.line, lines)) ||
      (merchant !== undefined && partOf(String(found.match.value), String(merchant.match.value)));
    // The same line found by another rule keeps that rule's score and reasoning, with the name cleaned of specks.
    if (merchant && found?.match.line === merchant.match.line)
      best.vendor_name = { ...found, match: { ...found.match, value: merchant.match.value } };
    else if (merchant && weak) best.vendor_name = merchant;
    // No name at the top (a head of "RECEIPT" and an address): the footer's thanks or web address name the merchant.
    else if (!merchant && (weak || isAddress(found!))) best.vendor_name = footerMerchant(lines) ?? found;
    const value = best.vendor_name?.match.value;
    const clean = typeof value === "string" ? endAtLegalForm(ocrName(value)) : null;
    if (clean !== null && clean !== value)
      best.vendor_name = { ...best.vendor_name!, match: { ...best.vendor_name!.match, value: clean } };
  }
  if ("total_amount" in best) best.total_amount = checkedTotal(best, lines, dateOrder, receiptRows(lines));
  if ("invoice_date" in best && !best.invoice_date) best.invoice_date = misreadDate(lines, dateOrder);
  else if ("invoice_date" in best) best.invoice_date = labelledDate(best.invoice_date, lines, dateOrder);
}

/** Whether a vendor found is a line of the merchant's address (a street, a postcode and city). */
function isAddress(found: Candidate): boolean {
  return isAddressLine(found.match.line.text) || STREET.test(String(found.match.value));
}

/** Whether `part` is the end of the head's name printed over two lines ("CO. (M) SDN BHD" of "POPULAR BOOK …"). */
function partOf(part: string, name: string): boolean {
  const flat = (x: string) => fold(x).replace(/[^\p{L}\p{N}]/gu, "");
  return flat(part).length >= 3 && flat(name).length > flat(part).length && flat(name).endsWith(flat(part));
}

/** Whether a title line ("TAX INVOICE", "RECEIPT") stands between the head's name above and `line` below it. */
function belowTitle(line: Line, name: Line, lines: Line[]): boolean {
  if (line.page !== name.page || line.box[1] <= name.box[3]) return false;
  return lines.some((l) => {
    if (l.page !== line.page || l.box[1] <= name.box[3] || l.box[3] >= line.box[1]) return false;
    const text = fold(l.text.trim())
      .replace(/[^\p{L}\s/]+/gu, " ")
      .trim();
    return TITLE.test(text) && text.split(/\s+/).length <= 4;
  });
}

/** Whether `line` lies at or below the first line with an amount: among items and sums, where no vendor is named. */
function amongItems(line: Line, lines: Line[], dateOrder: DateOrder): boolean {
  const first = lines.find(
    (l) => l.page === line.page && findAmounts(l.text, dateOrder).some((a) => a.decimals && /[.,]\d{2}/.test(l.text)),
  );
  return first !== undefined && line.box[1] >= first.box[1];
}

/** The merchant's line among the head's first lines (see the module comment), as a candidate. */
function merchantOf(lines: Line[], dateOrder: DateOrder): Candidate | undefined {
  const first = lines[0]?.page;
  const head = lines
    .filter((l) => l.page === first && l.text.trim())
    .sort((a, b) => a.box[1] - b.box[1])
    .slice(0, HEAD_LINES);
  const names: Array<{ line: Line; value: string; height: number }> = [];
  for (const line of head) {
    const text = line.text.trim();
    // What ends a head can only end one that has begun: a date, a store number or a mark above the name is passed.
    const ends =
      HEAD_END.test(fold(text)) ||
      findDates(text, dateOrder).some((d) => d.iso) ||
      findAmounts(text, dateOrder).some((a) => a.decimals);
    if (ends && names.length) break;
    const value = ends ? null : nameOf(line);
    if (!value || TITLE.test(fold(value)) || ENDS_TITLE.test(fold(value)) || STREET.test(value)) continue;
    if (isAddressLine(text) || isRegistration(value)) continue;
    names.push({ line, value, height: textHeight(line) });
  }
  if (!names.length) return undefined;
  const tallest = names.reduce((a, b) => (b.height > a.height * 1.15 ? b : a));
  // A logo's brand ("GARDEN FRESH MART") over the company's registered name ("GARDEN FRESH MART SDN BHD"): the latter.
  const registered = names.find((n) => n !== tallest && registeredAs(tallest.value, n.value));
  const line = (registered ?? tallest).line;
  // A name whose legal form the till printed on the line below ("PASARAYA BORONG PINTAR" / "SDN BHD").
  const below = head[head.indexOf(line) + 1];
  const value = registered
    ? registered.value
    : withLegalTail(tallest.value, below && nameOf(below) ? below.text : undefined);
  return {
    match: { value, line, start: 0, end: line.text.length, strength: 0.62 },
    score: 0.62,
    reasoning: `merchant name at the top of the receipt (page ${line.page.page_number}, line ${line.index + 1})`,
  };
}

/** The line's words that can be part of a name (specks and marks stuck to a word dropped), or null. */
function nameOf(line: Line): string | null {
  const words = line.words
    .map((w) => ocrName(afterSpeck(w.word.text)[0]).replace(/[^\p{L}\p{N}.&'’)-]+$/u, ""))
    .filter((w) => /[\p{L}\p{N}&]/u.test(w));
  const value = words.join(" ");
  const letters = (value.match(/\p{L}/gu) ?? []).length;
  return letters >= 3 && words.length <= 7 && /\p{L}{2}/u.test(value) ? value : null;
}

/** Median height of the line's confidently read words: one junk box does not make a line look large. */
function textHeight(line: Line): number {
  const hs = line.words
    .filter((w) => w.word.confidence >= 0.5 && /[\p{L}\p{N}]{2}/u.test(w.word.text))
    .map((w) => w.box[3] - w.box[1])
    .sort((a, b) => a - b);
  return hs.length ? hs[hs.length >> 1]! : lineHeight(line) * 0.5;
}

const cents = (v: number) => Math.round(v * 100);
const same = (a: number | null | undefined, b: number | null | undefined) =>
  typeof a === "number" && typeof b === "number" && cents(a) === cents(b);

/** The total after the receipt's arithmetic had its say (see the module comment). */
function checkedTotal(best: ReceiptFields, lines: Line[], dateOrder: DateOrder, rows: Line[]): Candidate | undefined {
  const { pay, change } = tenderedLessChange(lines, dateOrder);
  // A net total, a subtotal or the tax summary's total row read as the total: the grand total printed above it,
  // which the checks below (rounding, a currency sign read as a digit) then apply to.
  const first = best.total_amount;
  const grand =
    typeof first?.match.value === "number"
      ? grandTotal(first, rows, [pay, cardPaid(lines, dateOrder)], dateOrder)
      : null;
  const total = grand ? settled(grand.value, grand.why, first, lines, change) : first;
  const read = typeof total?.match.value === "number" ? total.match.value : null;
  const items = itemsSum(lines, total?.match.line, dateOrder);
  const sub = num(best.subtotal_amount);
  const tax = num(best.tax_amount);
  const sums = [pay, items, sub !== null && tax !== null ? (cents(sub) + cents(tax)) / 100 : null, sub];
  // A total read on a points or savings line ("POINTS BALANCE 117.01" for a lost BALANCE DUE) is what was paid.
  if (total && LOYALTY.test(fold(total.match.line.text))) {
    const paidBy =
      pay ?? cardPaid(lines, dateOrder) ?? (sub !== null && tax !== null ? (cents(sub) + cents(tax)) / 100 : null);
    if (paidBy !== null)
      return settled(
        paidBy,
        "what was paid (the amount read was a points or savings line's)",
        undefined,
        lines,
        change,
      );
  }
  // What was paid, printed as a total, beats sums that an amount before rounding or a tax summary satisfies.
  // Read on the rows: OCR puts a till's labels and amounts in blocks of their own ("RND ADJ" left, "0.02" right).
  const paid = same(pay, read) ? null : paidTotal(read, [pay, cardPaid(lines, dateOrder)], rows, dateOrder);
  if (paid) return settled(paid.value, paid.why, total, lines, change);
  if (read !== null && sums.some((s) => same(s, read))) return total;
  const agreed = pay !== null && same(pay, items) ? pay : null;
  const inside = read !== null ? (sums.find((s) => s !== null && s > 0 && misreadSign(read, s)) ?? null) : null;
  const noCents = read === null || !readWithDecimals(total!);
  // A total read without its cents ("RM144 8g"): tendered − change, or the bill's subtotal and charges added up.
  const chained = noCents && read !== null ? chainedTotal(lines, total!.match.line, dateOrder) : null;
  const lost = noCents
    ? (pay ??
      (chained !== null && Math.trunc(chained) === Math.trunc(read!) ? chained : null) ??
      (read !== null ? pointLost(read, total!, lines, dateOrder) : null))
    : null;
  const value = agreed ?? inside ?? lost;
  if (value === null || value === undefined) return total;
  const why =
    value === agreed
      ? "tendered minus change, equal to the items' sum"
      : value === inside
        ? `the total read as ${read} with its currency sign taken for a digit, confirmed by the receipt's sums`
        : value === pay
          ? "tendered minus change (the total's amount was not read)"
          : value === chained
            ? `the subtotal and the charges below it added up (the total read as ${read}, without its cents)`
            : `the total read as ${read} with its decimal point lost (the receipt prints its amounts with cents)`;
  return settled(value, why, total, lines, change);
}

/** The total settled on `value`, shown on the total's line (or the change's, or the last line). */
function settled(
  value: number,
  why: string,
  total: Candidate | undefined,
  lines: Line[],
  change: { line: Line } | null,
): Candidate {
  const line = total?.match.line ?? change?.line ?? lines[lines.length - 1]!;
  return {
    match: { value, line, start: total?.match.start ?? 0, end: total?.match.end ?? line.text.length, strength: 0.6 },
    score: 0.6,
    reasoning: `${why} (page ${line.page.page_number}, line ${line.index + 1})`,
  };
}

const num = (c: Candidate | undefined) => (typeof c?.match.value === "number" ? c.match.value : null);

/** "868.90" for 68.90 ($ read as 8, 5, 6 or 9; ₹ as 2; € as 6 or 7): one leading digit more, the rest the same digits. */
function misreadSign(read: number, value: number): boolean {
  const [r, v] = [String(cents(read)), String(cents(value))];
  return r.length === v.length + 1 && r.endsWith(v) && /[256789]/.test(r[0]!);
}

function readWithDecimals(c: Candidate): boolean {
  return /\d[.,]\d{2}(?!\d)/.test(c.match.line.text.slice(c.match.start, c.match.end));
}
