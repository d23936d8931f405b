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
  "acquirente",
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

/** Separators of a return-address line ("Acme GmbH · Hauptstr. 1 · 12345 Berlin"); OCR reads "·" as "-", "." or "•". */
const SENDER_SEPARATOR = /\s[·•|∙*-]\s|\s\.\s|,\s/gu;
/** SENDER_SEPARATOR without the global flag (whose `test` would carry `lastIndex` from one line to the next). */
const HAS_SENDER_SEPARATOR = new RegExp(SENDER_SEPARATOR.source, "u");
/** The parts of a one-line address: OCR also reads the middle dot as a colon ("Krüger Logistik GmbH : 12345 Erfurt"). */
const ADDRESS_PARTS = new RegExp(`${SENDER_SEPARATOR.source}|\\s:\\s`, "u");

/** A whole address in one line: a name, then a street or postcode and town after separators ("Acme GmbH · Hauptstr. 1"). */
export function oneLineAddress(text: string): boolean {
  const parts = text.split(ADDRESS_PARTS).map((p) => p.trim());
  return (
    parts.length >= 2 && /\p{L}{2,}/u.test(parts[0]!) && parts.slice(1).some((p) => POSTCODE.test(p) || STREET.test(p))
  );
}

/**
 * The sender line over a window envelope's address (DIN 5008 "Rücksendeangabe", the return address of French and
 * Dutch letters): one line in smaller type than the address lines under it (the next line starting at its left
 * edge), the sender's name, street and postcode joined by separators. It names the seller; the recipient's block
 * starts under it. Returns the sender's name (the part before the first separator) or null.
 */
export function senderLineName(line: Line, pageLines: Line[]): string | null {
  // Most lines have no separator at all: they are settled before their blocks and the lines under them are looked at.
  if (!HAS_SENDER_SEPARATOR.test(line.text)) return null;
  // Only the line's first block: a text layer may join the information block beside it into the same line.
  const end = sameBlockEnd(line, 0);
  const own = line.words.filter((w) => w.end <= end);
  // A return address is short; a sentence of the payment terms ("..., die Gebühr von 14 Tagen ...") is not.
  if (!own.length || own.length > 14) return null;
  // The text's own tests first: most lines have no separator, and then the page need not be searched for the next line.
  const parts = line.text
    .slice(0, end)
    .split(SENDER_SEPARATOR)
    .map((p) => p.trim());
  if (parts.length < 2 || !parts.slice(1).some((p) => POSTCODE.test(p) || STREET.test(p))) return null;
  const lh = typeHeight(own);
  const next = pageLines
    .filter(
      (l) =>
        l.page === line.page &&
        l.box[1] > line.box[1] + lh * 0.5 &&
        Math.abs(l.box[0] - line.box[0]) < lh * 2 &&
        /[\p{L}\p{N}]{2}/u.test(l.text), // a speck of grain read as a line of its own is no address line
    )
    .reduce<Line | undefined>((a, b) => (!a || b.box[1] < a.box[1] ? b : a), undefined);
  if (!next || lh > typeHeight(next.words) * 0.85 || next.box[1] - line.box[3] > lineHeight(next) * 1.5) return null;
  const name = parts[0]!.replace(/^[^\p{L}\p{N}]+/u, "");
  // A letterhead's own address line ("Hauptstr. 5 · 12345 Berlin") starts with a street, not a name.
  return /\p{L}{2,}/u.test(name) && !/\d{3,}/.test(name) && !STREET.test(name) ? name : null;
}

/**
 * The height of a line's type: the median height of its words of two letters or digits (all its words when none).
 * On a scan one word's box may take in a speck of grain above or below it (a 6.5 pt sender line's "Marktplatz" 41 px
 * tall beside its other words' 19-21 px), and a skewed line's own box is taller than its type.
 */
function typeHeight(words: Line["words"]): number {
  const solid = words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.word.text));
  const heights = (solid.length ? solid : words).map((w) => w.box[3] - w.box[1]).sort((a, b) => a - b);
  return heights[heights.length >> 1] ?? 0;
}
