/**
 * Party blocks: where the buyer's and the payment blocks of a document are, and the words in them.
 *
 * - Lines under a buyer heading (bill to, ship to, Rechnungsempfänger, Käufer, facturé à, ...) and `ATTN:` / `z.Hd.`
 *   lines belong to the recipient.
 * - A payment block (bank details, Kontoinhaber, remit to, ...) names who is paid or where, not who sells.
 * - Street and postcode lines, and the account holder's name, which the issuer and recipient searches (parties.ts,
 *   recipient.ts) read. Pure functions over lines.
 */
import type { Word } from "../model";
import { type Line, lineHeight } from "./lines";
import { below, findLabels, type LabelHit, sameBlockEnd } from "./labels";
import { onlySpecksBefore } from "./specks";

/** Headings of the buyer's block, in the languages the default project reads. */
export const BUYER_HEADINGS = [
  "bill to",
  "billed to",
  "invoice to",
  "invoiced to",
  "sold to",
  "ship to",
  "shipped to",
  "deliver to",
  "delivery address",
  "billing address",
  "shipping address",
  "customer",
  "buyer",
  "recipient",
  "client",
  "bill to address",
  "rechnungsempfänger",
  "rechnung an",
  "rechnungsanschrift",
  "rechnungsadresse",
  "lieferadresse",
  "lieferanschrift",
  "käufer",
  "kunde",
  "empfänger",
  "leistungsempfänger",
  "facturé à",
  "adresse de facturation",
  "adresse de livraison",
  "livré à",
  "destinataire",
  "acheteur",
  "factuuradres",
  "afleveradres",
  "leveradres",
  "koper",
  "klant",
  "afnemer",
  "facturar a",
  "dirección de facturación",
  "dirección de envío",
  "cliente",
  "comprador",
  "destinatario",
  "cessionario",
  "committente",
  "acquirente",
  "köpare",
  "fakturamottagare",
  "kjøper",
  "fakturamottaker",
  "køber",
  "spett.le",
  "intestatario",
];
/** Headings of payment blocks (see the module contract); label matching is OCR-tolerant (findLabels). */
export const PAYMENT_HEADINGS = [
  "bank details",
  "banking details",
  "payment details",
  "bank account",
  "account holder",
  "account name",
  "beneficiary",
  "remit to",
  "remit payment to",
  "please remit payment to",
  "please remit to",
  "remittance address",
  "make checks payable to",
  "make cheques payable to",
  "bank",
  "bankverbindung",
  "bankdaten",
  "kontoinhaber",
  "zahlungsempfänger",
  "zahlungen bitte an",
  "zahlung bitte an",
  "kreditinstitut",
  "coordonnées bancaires",
  "titulaire du compte",
  "titulaire",
  "règlement à adresser à",
  "banque",
  "bankgegevens",
  "rekeninghouder",
  "ten name van",
  "betaling aan",
  "datos bancarios",
  "titular de la cuenta",
  "remitir el pago a",
  "banco",
  "coordinate bancarie",
  "intestatario del conto",
  "pagamento a",
  "banca",
];
/** The lines of a payment block under its heading: a bank box is short and set apart from what follows. */
const PAYMENT_BLOCK_LINES = 4;
export const RECIPIENT_LINE =
  /^\s*(attn|att|attention|z\.?\s?hd\.?|zu händen|c\/o|t\.?a\.?v\.?|à l'attention de|a l'attention de)\b[\s.:]/iu;

/** The lines right under `line` (same left edge, no gap) include a street or postcode line. */
export function addressFollows(line: Line, sorted: Line[]): boolean {
  const at = sorted.indexOf(line);
  return sorted
    .slice(at + 1, at + 3)
    .some(
      (l) =>
        Math.abs(l.box[0] - line.box[0]) < lineHeight(line) &&
        l.box[1] - line.box[3] < lineHeight(line) * 2 &&
        (STREET.test(l.text) || POSTCODE.test(l.text)) &&
        !/:/.test(l.text),
    );
}

const recipientMemo = new WeakMap<Line[], Set<Word>>();

/** Words that belong to the recipient: buyer-heading blocks and ATTN lines (memoised per line list). */
export function recipientWords(lines: Line[]): Set<Word> {
  const memo = recipientMemo.get(lines);
  if (memo) return memo;
  const out = new Set<Word>();
  recipientMemo.set(lines, out);
  for (const hit of buyerHeadings(lines)) {
    for (const w of hit.line.words)
      if (w.start >= hit.start && w.box[0] - hit.box[2] < lineHeight(hit.line) * 6) out.add(w.word);
    // The block ends at a gap wider than a blank line (the title or the next section under it). The first row
    // under the heading is its block whatever the space after a heading (OCR boxes are glyph-tight, so a heading
    // without descenders looks short).
    let last = hit.line.box;
    for (const [i, row] of below(hit, lines, 5).entries()) {
      if (i > 0 && row.box[1] - last[3] > Math.max(lineHeight(hit.line), lineHeight(row)) * 1.6) break;
      for (const w of row.words) out.add(w.word);
      last = row.box;
    }
  }
  for (const line of lines) if (RECIPIENT_LINE.test(line.text)) for (const w of line.words) out.add(w.word);
  return out;
}

const paymentMemo = new WeakMap<Line[], Set<Word>>();

/**
 * Words of payment blocks (memoised per line list): the rest of a heading's line ("Account holder: X Factoring
 * GmbH"), and for a heading alone on its line the lines right under it, up to a gap of a line height.
 */
export function paymentWords(lines: Line[]): Set<Word> {
  const memo = paymentMemo.get(lines);
  if (memo) return memo;
  const out = new Set<Word>();
  paymentMemo.set(lines, out);
  for (const hit of findLabels(lines, PAYMENT_HEADINGS)) {
    if (!startsCell(hit)) continue;
    const height = lineHeight(hit.line);
    const rest = hit.line.words.filter((w) => w.start >= hit.start && w.box[0] - hit.box[2] < height * 6);
    for (const w of rest) out.add(w.word);
    if (rest.some((w) => w.start >= hit.end && /[\p{L}\p{N}]/u.test(w.word.text))) continue;
    let last = hit.line.box;
    for (const [i, row] of below(hit, lines, PAYMENT_BLOCK_LINES).entries()) {
      if (i > 0 && row.box[1] - last[3] > Math.max(height, lineHeight(row))) break;
      for (const w of row.words) out.add(w.word);
      last = row.box;
    }
  }
  return out;
}

const HOLDER_LABELS = [
  "account holder",
  "account name",
  "beneficiary",
  "kontoinhaber",
  "begünstigter",
  "zahlungsempfänger",
  "titulaire du compte",
  "bénéficiaire",
  "rekeninghouder",
  "ten name van",
  "t.n.v.",
  "titular de la cuenta",
  "beneficiario",
  "intestatario del conto",
  "intestatario",
  "intestato a",
];

/** Names printed after an account-holder label, compacted (letters and digits, lower case). */
export function holderNames(lines: Line[]): string[] {
  return findLabels(lines, HOLDER_LABELS)
    .map((hit) => compactName(hit.line.text.slice(hit.end, sameBlockEnd(hit.line, hit.end))))
    .filter((n) => n.length > 0);
}

/** Buyer headings that start a cell, not in a bank block ("Intestatario"); once per line list (callers MUST NOT
 * change it). */
const buyerMemo = new WeakMap<Line[], LabelHit[]>();
export function buyerHeadings(lines: Line[]): LabelHit[] {
  let hits = buyerMemo.get(lines);
  if (hits) return hits;
  const payment = paymentWords(lines);
  hits = findLabels(lines, BUYER_HEADINGS).filter(
    (hit) =>
      startsCell(hit) && !hit.line.words.some((w) => w.start < hit.end && w.end > hit.start && payment.has(w.word)),
  );
  buyerMemo.set(lines, hits);
  return hits;
}

/** A heading stands at the start of its line or of a cell (a wide gap before it), not in prose ("our customer"). */
function startsCell(hit: { line: Line; start: number }): boolean {
  const words = hit.line.words;
  const i = words.findIndex((w) => w.end > hit.start);
  if (i <= 0 || onlySpecksBefore(hit.line, hit.start)) return true;
  // OCR reads marks in a column gap ("FROM  ©  +  BILL TO"): the gap is measured from the last word with a letter.
  const prev = words.slice(0, i).findLast((w) => /[\p{L}\p{N}]/u.test(w.word.text)) ?? words[i - 1]!;
  return words[i]!.box[0] - prev.box[2] > lineHeight(hit.line) * 2;
}

export const inRecipient = (line: Line, start: number, end: number, recipient: Set<Word>) =>
  line.words.some((w) => w.start < end && w.end > start && recipient.has(w.word));

export const compactName = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

export const STREET = /(?<![\p{L}\p{N}])\d{1,5}[a-z]?\s+\p{L}{3,}|\p{L}{3,}\.?\s+\d{1,5}[a-z]?(?![\p{L}\p{N}])/iu;
export const POSTCODE =
  /(?<![\p{L}\p{N}])(\d{4,5}|\d{4}\s?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|[A-Z]-\d{4,5})\s+\p{L}{3,}/u;
