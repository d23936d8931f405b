/**
 * Party roles: which printed company is the seller (issuer) and which the buyer (recipient).
 *
 * Contracts:
 * - Lines under a buyer heading (bill to, ship to, Rechnungsempfänger, Käufer, facturé à, ...) and `ATTN:` / `z.Hd.`
 *   lines belong to the recipient: no issuer candidate MAY come from them.
 * - Nor from a payment block: the bank, the account holder (a factoring company, a payment provider) and a
 *   remittance address (bank details, Kontoinhaber, remit to, ...) name who is paid or where, not who sells.
 * - Issuer candidates, each scored: a company with a legal form (whole tokens, a name before it), the name in a
 *   title ("Amazon Web Services Invoice"), the company line over a footer's legal lines (registered office, share
 *   capital, register numbers), the letterhead (largest type at the top of the first page; on a till receipt the
 *   merchant). A name matching the domain of the document's e-mail or web address counts more.
 * - Pure functions over lines; the extractor merges these candidates with labelled ones.
 */
import type { Word } from "../model";
import { type Line, lineHeight, uprightSize } from "./lines";
import { below, findLabels, type LabelHit, sameBlockEnd } from "./labels";
import { legalForm } from "./company";
import { afterSpeck, onlySpecksBefore } from "./specks";
import { FREE_MAIL } from "./free-mail";
import { findDates } from "./normalize";
import { fold } from "./fuzzy";
import { findAmounts } from "./values";

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
const RECIPIENT_LINE =
  /^\s*(attn|att|attention|z\.?\s?hd\.?|zu händen|c\/o|t\.?a\.?v\.?|à l'attention de|a l'attention de)\b[\s.:]/iu;
/** Words of a footer's legal lines: the company named above or in them is the issuer. */
const FOOTER_LEGAL =
  /(?<![\p{L}])(si[eè]ge|capital|rcs|siret|siren|hrb|hra|registergericht|amtsgericht|handelsregister|geschäftsführ|vorstand|kvk|registered (office|in)|company (reg|no|number)|registration|ust-?id|steuer-?nr|p\.\s?iva|cif|nif|codice fiscale|registro mercantil)/iu;
/** What a document calls itself: a name before it in a title line is the issuer's. */
const DOC_WORD =
  /\s+(tax invoice|invoice|receipt|rechnung|quittung|factuur|facture|reçu|factura|fattura|recibo|ricevuta|credit note|gutschrift)\s*$/iu;
/** A line that is the document's title. */
const TITLE = /^\s*(tax invoice|invoice|rechnung|factuur|facture|factura|fattura|receipt|credit note|gutschrift)\b/iu;

/** The lines right under `line` (same left edge, no gap) include a street or postcode line. */
function addressFollows(line: Line, sorted: Line[]): boolean {
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

/** Words before a title that qualify the document, not name its issuer ("Kopie factuur", "Simplified tax invoice"). */
const NOT_A_NAME =
  /^(tax|simplified|kopie|copy|duplicate|duplicata|duplikat|original|proforma|pro forma|your|ihre|uw|votre|su|sales|commercial|final|simplified|vereinfachte|interim|partial|summary|monthly|e|electronic|elektronische)(\s|$)/iu;
/** Words joining the words of a company name ("Marks and Spencer", "Van der Berg"). */
const CONNECTOR = /^(&|and|und|en|et|y|e|of|de|der|den|van|von|du|la|le|des|di|del|da|-|\+)$/iu;

/**
 * Where the company name before a legal form starts: the run of capitalised words (and connectors) right before
 * it, after any " - ", " | " or ":" separator, at most six words: "… at the end of this Invoice Amazon Web Services,
 * Inc." gives "Amazon Web Services, Inc.".
 */
function nameStart(text: string, formAt: number): number {
  const sep = Math.max(text.lastIndexOf(" - ", formAt), text.lastIndexOf(" | ", formAt), text.lastIndexOf(":", formAt));
  const from = sep < 0 ? 0 : sep + (text[sep] === ":" ? 1 : 3);
  const words = [...text.slice(from, formAt).matchAll(/\S+/g)];
  let start = formAt;
  let taken = 0;
  for (let i = words.length - 1; i >= 0 && taken < 6; i--) {
    const [w, speck] = afterSpeck(words[i]![0]);
    if (!/^[\p{Lu}\p{N}&+(]/u.test(w) && !CONNECTOR.test(w)) break;
    start = from + words[i]!.index! + speck;
    taken++;
  }
  // A name does not start with a connector, a document word or a mark.
  let rest = text.slice(start, formAt);
  while (true) {
    const m = /^(\S+)\s+/.exec(rest);
    if (!m || !(CONNECTOR.test(m[1]!) || DOC_WORD.test(` ${m[1]}`) || /^[^\p{L}\p{N}]+$/u.test(m[1]!))) break;
    start += m[0].length;
    rest = rest.slice(m[0].length);
  }
  return start;
}

/** A bank account or tax registration line: what a seller prints and a buyer's address block does not. */
const SELLER_EVIDENCE =
  /(?<![\p{L}])(iban|bic|swift|kto|konto|account|rekening|ust-?id|vat|tva|btw|mwst|iva|p\.\s?iva|nif|cif|steuer-?nr|siret|siren|rcs|kvk|gst|sst)(?![\p{L}])/iu;

export interface PartyCandidate {
  line: Line;
  start: number;
  end: number;
  value: string;
  score: number;
  why: string;
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
function holderNames(lines: Line[]): string[] {
  return findLabels(lines, HOLDER_LABELS)
    .map((hit) => compact(hit.line.text.slice(hit.end, sameBlockEnd(hit.line, hit.end))))
    .filter((n) => n.length > 0);
}

/**
 * Buyer headings that start a cell. A heading inside a bank block is the account holder's ("Intestatario" names
 * the addressee of an Italian invoice, and the holder of an account too).
 */
function buyerHeadings(lines: Line[]): LabelHit[] {
  const payment = paymentWords(lines);
  return findLabels(lines, BUYER_HEADINGS).filter(
    (hit) =>
      startsCell(hit) && !hit.line.words.some((w) => w.start < hit.end && w.end > hit.start && payment.has(w.word)),
  );
}

/** A heading stands at the start of its line or of a cell (a wide gap before it), not in prose ("our customer"). */
function startsCell(hit: { line: Line; start: number }): boolean {
  const i = hit.line.words.findIndex((w) => w.end > hit.start);
  if (i <= 0 || onlySpecksBefore(hit.line, hit.start)) return true;
  return hit.line.words[i]!.box[0] - hit.line.words[i - 1]!.box[2] > lineHeight(hit.line) * 2;
}

const inRecipient = (line: Line, start: number, end: number, recipient: Set<Word>) =>
  line.words.some((w) => w.start < end && w.end > start && recipient.has(w.word));

/** An e-mail or web domain; group 1 is its second-level label. */
export const DOMAIN =
  /(?:@|www\.|https?:\/\/|(?<![\p{L}\p{N}])[\p{L}\p{N}-]+\.)([\p{L}\p{N}-]+)\.(?:com|de|fr|nl|es|it|co|uk|net|org|io|eu|be|at|ch|pl|pt|in|my|sg|hk|au)(?![\p{L}])/giu;

/**
 * A line can print a domain only if it has "." and one of the endings DOMAIN knows: one quick scan settles ~95% of an
 * invoice's lines, where DOMAIN tries a word and a dot at every position (500 pages: 8.4 -> 0.6 ms, warm).
 */
export const DOMAIN_ENDING = /\.(?:com|de|fr|nl|es|it|co|uk|net|org|io|eu|be|at|ch|pl|pt|in|my|sg|hk|au)(?!\p{L})/iu;

/** Second-level labels of the e-mail and web domains printed on the document ("aws.amazon.com" → "amazon"). */
function domainsOf(lines: Line[]): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    if (!DOMAIN_ENDING.test(line.text)) continue;
    for (const m of line.text.matchAll(DOMAIN)) {
      const label = m[1]!.toLowerCase();
      if (label.length >= 3 && !FREE_MAIL.has(label)) out.add(label);
    }
  }
  return [...out];
}

const compact = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;

/**
 * Issuer candidates of a document, best first; see the module contract. Remembered per line list: the vendor name
 * asks for them, and the customer name again (the issuer is never the buyer). Callers MUST NOT change the list.
 */
const issuerMemo = new WeakMap<Line[], PartyCandidate[]>();
export function issuerCandidates(lines: Line[]): PartyCandidate[] {
  let found = issuerMemo.get(lines);
  if (!found) issuerMemo.set(lines, (found = findIssuerCandidates(lines)));
  return found;
}

function findIssuerCandidates(lines: Line[]): PartyCandidate[] {
  const first = lines[0]?.page;
  if (!first) return [];
  const recipient = recipientWords(lines);
  const payment = paymentWords(lines);
  const out: PartyCandidate[] = [];
  const add = (line: Line, start: number, end: number, score: number, why: string) => {
    const value = line.text
      .slice(start, end)
      .trim()
      .replace(/[\s,;:]+$/, "");
    if (letters(value) < 2 || inRecipient(line, start, end, recipient) || inRecipient(line, start, end, payment))
      return;
    out.push({ line, start, end, value, score, why });
  };
  const [, height] = uprightSize(first);
  const firstPage = lines.filter((l) => l.page === first).sort((a, b) => a.box[1] - b.box[1]);
  const title = firstPage.slice(0, 12).find((l) => l.words.length <= 4 && TITLE.test(l.text));

  // 1. Company names with a legal form, top to bottom: the letterhead's counts most, the footer's next.
  for (const line of firstPage) {
    const m = legalForm(line.text);
    if (!m) continue;
    // The name starts after a column gap: a text layer may join two columns into one line.
    const cell = line.words
      .filter((w, i) => i > 0 && w.start < m.index && w.box[0] - line.words[i - 1]!.box[2] > lineHeight(line) * 2)
      .pop();
    const start = Math.max(nameStart(line.text, m.index), cell?.start ?? 0);
    // A name has letters of its own: "1012 AB" is a Dutch postcode, not a Swedish company.
    if (letters(line.text.slice(start, m.index)) < 2) continue;
    const top = line.box[1] < height * 0.4;
    // Under the document's title and over a street or postcode: the recipient's window address, not a letterhead.
    const windowed = title !== undefined && line.box[1] > title.box[3] && addressFollows(line, firstPage);
    add(
      line,
      start,
      m.index + m[0].length,
      windowed ? 0.45 : top ? 0.6 : line.box[1] > height * 0.75 ? 0.55 : 0.5,
      `company name with legal form "${m[1]}"${windowed ? " in an address block under the title" : ""}`,
    );
  }
  // 2. A name before the document's own title ("Amazon Web Services Invoice").
  for (const line of firstPage.slice(0, 15)) {
    const m = DOC_WORD.exec(line.text);
    if (!m || m.index === 0) continue;
    const name = line.text.slice(0, m.index);
    if (
      name.split(/\s+/).length <= 5 &&
      /^\p{Lu}/u.test(name) &&
      !/\d|:|\//.test(name) &&
      !NOT_A_NAME.test(name) &&
      !DOC_WORD.test(` ${name.trim()}`)
    )
      add(line, 0, m.index, 0.55, "name in the document's title");
  }
  // 3. The company line right above a footer's legal lines (registered office, capital, register numbers).
  for (const page of new Set(lines.map((l) => l.page))) {
    const [, h] = uprightSize(page);
    const sorted = lines.filter((l) => l.page === page && l.box[1] > h * 0.7).sort((a, b) => a.box[1] - b.box[1]);
    sorted.forEach((line, i) => {
      const prev = sorted[i - 1];
      // The cheap tests of the line above first: most lines never reach the footer words' scan.
      if (
        !prev ||
        prev.words.length > 4 ||
        /\d/.test(prev.text) ||
        /:/.test(prev.text) ||
        !FOOTER_LEGAL.test(fold(line.text))
      )
        return;
      if (line.box[1] - prev.box[3] > lineHeight(prev) * 1.5) return;
      add(prev, 0, prev.text.length, 0.5, "company line over the footer's legal lines");
    });
  }
  // 4. The letterhead: the largest type among the first lines of the first page (a till receipt's merchant).
  const head = firstPage.filter((l) => l.box[1] < height * 0.3).slice(0, 8);
  // The recipient's window address under the title is no letterhead.
  const windowedHead = (l: Line) => title !== undefined && l.box[1] > title.box[3] && addressFollows(l, firstPage);
  const plain = head
    .filter((l) => !windowedHead(l))
    .filter(
      (l) =>
        letters(l.text) >= 3 &&
        l.words.length <= 6 &&
        !/[\p{L}]:/u.test(l.text) &&
        !DOC_WORD.test(` ${l.text}`) &&
        !findDates(l.text, "dmy").some((d) => d.iso) &&
        !/[@#_]|www\.|https?:|\d{3,}/i.test(l.text),
    );
  if (plain.length) {
    const tallest = plain.reduce((a, b) => (lineHeight(b) > lineHeight(a) * 1.15 ? b : a));
    add(tallest, 0, tallest.text.length, 0.42, "letterhead: the largest type at the top of the first page");
  }
  // Evidence: the seller's bank account or VAT ID printed in the candidate's block (the lines right under it).
  const sorted = lines.slice().sort((a, b) => a.box[1] - b.box[1]);
  for (const c of out) {
    const at = sorted.indexOf(c.line);
    const block = sorted
      .slice(at + 1, at + 4)
      .filter((l) => l.page === c.line.page && l.box[1] - c.line.box[3] < lineHeight(c.line) * 5);
    if (block.some((l) => SELLER_EVIDENCE.test(l.text) && !l.words.some((w) => recipient.has(w.word)))) {
      c.score = Math.min(0.75, c.score + 0.15);
      c.why += ", with the seller's bank or tax number in its block";
    }
  }
  // Evidence: the holder of the bank account printed (never a candidate itself: a factor or a payment provider may
  // hold it) names the seller when a candidate elsewhere carries the same name.
  const holders = holderNames(lines);
  for (const c of out) {
    if (!holders.some((h) => h.length >= 4 && (compact(c.value).includes(h) || h.includes(compact(c.value))))) continue;
    c.score = Math.min(0.75, c.score + 0.1);
    c.why += ", the holder of the bank account";
  }
  // Evidence: a name matching the document's own e-mail or web domain.
  const domains = domainsOf(lines);
  for (const c of out) {
    if (
      domains.some(
        (d) =>
          compact(c.value).includes(d) ||
          (d.length >= 4 && d.includes(compact(c.value)) && compact(c.value).length >= 4),
      )
    ) {
      c.score = Math.min(0.75, c.score + 0.12);
      c.why += ", matching the document's e-mail or web domain";
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

const STREET = /(?<![\p{L}\p{N}])\d{1,5}[a-z]?\s+\p{L}{3,}|\p{L}{3,}\.?\s+\d{1,5}[a-z]?(?![\p{L}\p{N}])/iu;
const POSTCODE =
  /(?<![\p{L}\p{N}])(\d{4,5}|\d{4}\s?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|[A-Z]-\d{4,5})\s+\p{L}{3,}/u;

/**
 * The buyer's name: the first line of a block under a buyer heading (an `ATTN:` prefix dropped), else of the
 * window address block (a name over a street and postcode, in the upper half of the first page) that holds no
 * issuer candidate.
 */
export function recipientCandidates(lines: Line[]): PartyCandidate[] {
  const first = lines[0]?.page;
  if (!first) return [];
  const out: PartyCandidate[] = [];
  const nameOf = (line: Line, score: number, why: string): boolean => {
    const attn = RECIPIENT_LINE.exec(line.text);
    const start = attn ? attn[0].length + /^\s*/.exec(line.text.slice(attn[0].length))![0].length : 0;
    // Up to the column gap: a text layer may join the name with the next column ("Pino Bluebird  www.shop.nl").
    const end = sameBlockEnd(line, start);
    const value = line.text.slice(start, end).trim();
    if (letters(value) < 3 || /[\p{L}]:(\s|$)|#/u.test(value) || findDates(value, "dmy").some((d) => d.iso))
      return false;
    if (DOC_WORD.test(` ${value.replace(/[.:!]+$/, "")}`)) return false; // the document's title ("FACTUUR."), not a name
    out.push({ line, start, end, value, score, why });
    return true;
  };
  for (const hit of buyerHeadings(lines)) {
    const rest = hit.line.text.slice(hit.end).replace(/^[\s:]*(address|adresse|adres)?[\s:]*/i, "");
    const row = rest.trim() ? null : below(hit, lines, 1)[0];
    if (row) nameOf(row, 0.5, `first line under the buyer heading "${hit.line.text.slice(hit.start, hit.end)}"`);
  }
  const [, height] = uprightSize(first);
  const issuer = issuerCandidates(lines)[0];
  const page = lines.filter((l) => l.page === first && l.box[1] < height * 0.5).sort((a, b) => a.box[1] - b.box[1]);
  for (let i = 0; i < page.length; i++) {
    const block = [page[i]!];
    for (let j = i + 1; j < page.length && block.length < 6; j++) {
      const prev = block[block.length - 1]!;
      const next = page[j]!;
      if (next.box[1] - prev.box[3] > lineHeight(prev) * 1.2) break;
      if (Math.abs(next.box[0] - block[0]!.box[0]) > lineHeight(prev)) continue;
      block.push(next);
    }
    // An address has no amounts (item rows of a table are no address).
    if (block.some((l) => findAmounts(l.text).some((a) => a.decimals))) continue;
    if (
      block.length < 3 ||
      !block
        .slice(1)
        .some(
          (l) =>
            (STREET.test(l.text) || POSTCODE.test(l.text)) && !/:/.test(l.text) && !findDates(l.text, "dmy").length,
        )
    )
      continue;
    if (issuer && block.some((l) => l === issuer.line || compact(l.text).includes(compact(issuer.value)))) {
      i = page.indexOf(block[block.length - 1]!); // the issuer's own address block, all of it
      continue;
    }
    if (/\d/.test(block[0]!.text) && STREET.test(block[0]!.text)) continue; // a street, not a name
    if (nameOf(block[0]!, 0.42, "first line of the recipient's address block")) break;
  }
  return out;
}
