/**
 * Party roles: which printed company is the seller (issuer); the buyer is found in recipient.ts, the buyer's and
 * payment blocks in party-blocks.ts.
 *
 * Contracts:
 * - Lines under a buyer heading and `ATTN:` / `z.Hd.` lines belong to the recipient: no issuer candidate MAY come
 *   from them.
 * - Nor from a payment block: the bank, the account holder (a factoring company, a payment provider) and a
 *   remittance address (bank details, Kontoinhaber, remit to, ...) name who is paid or where, not who sells.
 * - Issuer candidates, each scored: a company with a legal form (whole tokens, a name before it), the name in a
 *   title ("Amazon Web Services Invoice"), the company line over a footer's legal lines (registered office, share
 *   capital, register numbers), the letterhead (largest type at the top of the first page; on a till receipt the
 *   merchant). A name matching the domain of the document's e-mail or web address counts more.
 * - Pure functions over lines; the extractor merges these candidates with labelled ones.
 */
import type { Word } from "../model";
import { cellsOf, type Line, lineHeight, uprightSize } from "./lines";
import { legalForm } from "./company";
import { FREE_MAIL } from "./free-mail";
import { fold } from "./fuzzy";
import { fullerName } from "./names-fuller";
import { DOC_WORD, nameStart } from "./name-start";
import {
  addressFollows,
  compactName,
  holderNames,
  inRecipient,
  paymentWords,
  POSTCODE,
  recipientWords,
  STREET,
} from "./party-blocks";
import { senderLineName } from "./sender-line";
import { firstNameCell, nameLike, overLine } from "./letterhead-lines";
import { letters } from "./word-bounds";

/** Words of a footer's legal lines: the company named above or in them is the issuer. */
const FOOTER_LEGAL =
  /(?<![\p{L}])(si[eè]ge|capital|rcs|siret|siren|hrb|hra|registergericht|amtsgericht|handelsregister|geschäftsführ|vorstand|kvk|registered (office|in)|company (reg|no|number)|registration|ust-?id|steuer-?nr|p\.\s?iva|cif|nif|codice fiscale|registro mercantil)/iu;
/** A line that is the document's title. */
export const TITLE =
  /^\s*(tax invoice|invoice|rechnung|factuur|facture|factura|fattura|faktura|receipt|credit note|gutschrift)\b/iu;

/** Words before a title that qualify the document, not name its issuer ("Kopie factuur", "Simplified tax invoice"). */
const NOT_A_NAME =
  /^(tax|simplified|kopie|copy|duplicate|duplicata|duplikat|original|proforma|pro forma|your|ihre|uw|votre|su|sales|commercial|final|simplified|vereinfachte|interim|partial|summary|monthly|e|electronic|elektronische)(\s|$)/iu;
/** A name never ends in a preposition: "Due on receipt", "Payable upon receipt" are terms before a title word. */
const TERMS_BEFORE = /\s(on|upon|of|after|against|bei|nach|gegen|sur|à)\s*$/iu;
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

type AddCandidate = (line: Line, start: number, end: number, score: number, why: string) => void;

/** What the candidate searches share: the first page top to bottom, its height and its title line. */
interface FirstPage {
  lines: Line[];
  height: number;
  title: Line | undefined;
}

function findIssuerCandidates(lines: Line[]): PartyCandidate[] {
  const first = lines[0]?.page;
  if (!first) return [];
  const recipient = recipientWords(lines);
  const payment = paymentWords(lines);
  const out: PartyCandidate[] = [];
  const add: AddCandidate = (line, start, end, score, why) => {
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
  const page: FirstPage = { lines: firstPage, height, title };

  legalFormCandidates(page, add);
  titleCandidates(page, add);
  footerCandidates(lines, add);
  letterheadCandidate(page, add);
  senderLineCandidate(page, add);
  addEvidence(lines, out, recipient);
  // A name OCR gave in part, made whole; once per name (the letterhead, the sender line and the footer often give
  // the same one, and each asked searches every line of the document).
  const fuller = new Map<string, string>();
  for (const c of out) {
    let whole = fuller.get(c.value);
    if (whole === undefined) fuller.set(c.value, (whole = fullerName(c.value, lines, recipient)));
    c.value = whole;
  }
  spelledLegalForms(out);
  return out.sort((a, b) => b.score - a.score);
}

/**
 * One company named in several places, read once with its legal form misspelt ("Schäfer Haustechnik eK." in a
 * scan's footer, "e.K." in its sender line): a candidate whose legal form is not found takes the spelling of one
 * with the same letters and digits whose legal form is.
 */
function spelledLegalForms(out: PartyCandidate[]): void {
  for (const c of out) {
    if (legalForm(c.value)) continue;
    const same = out.find((o) => legalForm(o.value) && compactName(o.value) === compactName(c.value));
    if (same) c.value = same.value;
  }
}

/** 1. Company names with a legal form, top to bottom: the letterhead's counts most, the footer's next. */
function legalFormCandidates({ lines: firstPage, height, title }: FirstPage, add: AddCandidate): void {
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
    // A street and a town before a state's letters ("7 George Street, Glenelg SA 5045"): an address, not a firm.
    if (/^\d{1,5}[a-z]?\s+\p{L}{3,}[^,]*,/u.test(line.text.slice(start, m.index))) continue;
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
}

/** 2. A name before the document's own title ("Amazon Web Services Invoice"). */
function titleCandidates({ lines: firstPage }: FirstPage, add: AddCandidate): void {
  for (const line of firstPage.slice(0, 15)) {
    const m = DOC_WORD.exec(line.text);
    if (!m || m.index === 0) continue;
    const name = line.text.slice(0, m.index);
    if (
      name.split(/\s+/).length <= 5 &&
      /^\p{Lu}/u.test(name) &&
      !/\d|:|\//.test(name) &&
      !NOT_A_NAME.test(name) &&
      !TERMS_BEFORE.test(name) &&
      !DOC_WORD.test(` ${name.trim()}`)
    )
      add(line, 0, m.index, 0.55, "name in the document's title");
  }
}

/** 3. The company line right above a footer's legal lines (registered office, capital, register numbers). */
function footerCandidates(lines: Line[], add: AddCandidate): void {
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
        /:|@|www\./.test(prev.text) ||
        !FOOTER_LEGAL.test(fold(line.text))
      )
        return;
      if (line.box[1] - prev.box[3] > lineHeight(prev) * 1.5) return;
      add(prev, 0, prev.text.length, 0.5, "company line over the footer's legal lines");
    });
  }
}

/** 4. The letterhead: the largest type among the first lines of the first page (a till receipt's merchant). */
function letterheadCandidate({ lines: firstPage, height, title }: FirstPage, add: AddCandidate): void {
  const head = firstPage.filter((l) => l.box[1] < height * 0.3).slice(0, 8);
  // The recipient's window address under the title is no letterhead; a name in larger type than the line under it
  // is one (a window address is printed in one size; a seller's sheet puts its name in bold over its address).
  const windowedHead = (l: Line) =>
    title !== undefined && l.box[1] > title.box[3] && addressFollows(l, firstPage) && !overLine(l, firstPage);
  // A spreadsheet's name may share its row with a label and value cell beside it: its first cell may be the name.
  const plain = head
    .filter((l) => !windowedHead(l))
    .filter((l) => nameLike(l.text, l.words.length) || firstNameCell(l));
  // A text layer may join the title and the letterhead beside it ("FACTURE    Acme SARL"): the cell that is no title.
  // A title joined with the seller's street beside it ("FAKTURA    Am Marktplatz 32") names nobody.
  const cellOf = (l: Line) => {
    if (!nameLike(l.text, l.words.length)) return firstNameCell(l);
    const all = cellsOf(l);
    const cells = all.filter(([s, e]) => !TITLE.test(l.text.slice(s, e)));
    if (cells.length === 0) return [0, l.text.length] as const;
    if (cells.length === all.length) return cells[0];
    return cells.find(([s, e]) => !STREET.test(l.text.slice(s, e)) && !POSTCODE.test(l.text.slice(s, e)));
  };
  const named = plain.filter((l) => cellOf(l));
  if (named.length) {
    const tallest = named.reduce((a, b) => (lineHeight(b) > lineHeight(a) * 1.15 ? b : a));
    const cell = cellOf(tallest)!;
    add(tallest, cell[0], cell[1], 0.42, "letterhead: the largest type at the top of the first page");
  }
}

/** 5. The sender's name in the return-address line over the window address (party-blocks.ts, senderLineName). */
function senderLineCandidate({ lines: firstPage, height }: FirstPage, add: AddCandidate): void {
  firstPage.forEach((line) => {
    // The window of a DIN 5008 or C5/6 envelope sits in the top third of the page.
    const name = line.box[1] < height * 0.35 && senderLineName(line, firstPage);
    const at = name ? line.text.indexOf(name) : -1;
    if (name) add(line, at, at + name.length, 0.62, "sender line over the address window");
  });
}

/** Raises the scores of candidates with the seller's bank or tax number, the account holder's name or the domain. */
function addEvidence(lines: Line[], out: PartyCandidate[], recipient: Set<Word>): void {
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
    if (!holders.some((h) => h.length >= 4 && (compactName(c.value).includes(h) || h.includes(compactName(c.value)))))
      continue;
    c.score = Math.min(0.75, c.score + 0.1);
    c.why += ", the holder of the bank account";
  }
  // Evidence: a name matching the document's own e-mail or web domain.
  const domains = domainsOf(lines);
  for (const c of out) {
    if (
      domains.some(
        (d) =>
          compactName(c.value).includes(d) ||
          (d.length >= 4 && d.includes(compactName(c.value)) && compactName(c.value).length >= 4),
      )
    ) {
      c.score = Math.min(0.75, c.score + 0.12);
      c.why += ", matching the document's e-mail or web domain";
    }
  }
}
