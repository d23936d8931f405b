/**
 * The recipient (buyer) of a document: the first line under a buyer heading, else the window address block.
 * Pure functions over lines; the extractor merges these candidates with labelled ones.
 */
import { type Line, lineHeight, uprightSize } from "./lines";
import { below, sameBlockEnd } from "./labels";
import { findDates } from "./normalize";
import { editDistance } from "./fuzzy";
import { findAmounts } from "./values";
import { buyerHeadings, compactName, POSTCODE, RECIPIENT_LINE, STREET } from "./party-blocks";
import { noteZone, oneLineAddress, senderLineName, typeHeight } from "./sender-line";
import { letters } from "./word-bounds";
import { DOC_WORD } from "./name-start";
import { issuerCandidates, type PartyCandidate, TITLE } from "./parties";
import { sellerBlocks } from "./seller-blocks";
import { plausible } from "./candidate";

/**
 * The issuer's name in a line, as OCR may have read it differently in the letterhead and in the sender line
 * ("HoHnanh Haustechnik GmbH e Co. KG" and "Hoffmann Haustechnik GmbH & Co. KG"): a quarter of the letters may differ.
 */
function sameName(text: string, name: string): boolean {
  const [a, b] = [compactName(text), compactName(name)];
  if (a.includes(b)) return true;
  if (b.length < 8) return false;
  const max = Math.floor(b.length / 4);
  return editDistance(a.slice(0, b.length + max), b, max) <= max || editDistance(a, b, max) <= max;
}

/** sameName against the issuer's name, each line compared once: the address blocks overlap (one starts at every line). */
function issuerNameTest(issuer: PartyCandidate | undefined): (line: Line) => boolean {
  const seen = new Map<Line, boolean>();
  return (line) => {
    let same = seen.get(line);
    if (same === undefined) seen.set(line, (same = issuer !== undefined && sameName(line.text, issuer.value)));
    return same;
  };
}

/** Buyer headings of a delivery block (party-blocks.ts BUYER_HEADINGS), ranked under the billing ones. */
const SHIP_TO = /ship|deliver|liefer|livr|afle|lever|env[íi]o|consegna/iu;

/** A row of a document's details, by its label: a number, date, page, contact or reference of the document. */
const DETAIL_ROW =
  /^[^\p{L}\p{N}]*((rechnungs|kunden|auftrags|bestell|liefer|leistungs|beleg|steuer|vertrags|faktura|kund|kunde|ordre|order)-?\s?(nr|nummer|datum|dato|zeitraum|schein)|(invoice|customer|client|order|delivery|account|reference|tax|vat)\s+(no|nr|number|date|id)|(ihr|ihre|unser|unsere|your|our|votre|vos|notre)\s+\p{L}{3,}|n°|num[ée]ro|datum|date|seite|page|tel|fax|e-?mail|ref)(?![\p{L}])/iu;

const CONTACT = /@|www\.|https?:|(?<![\p{L}])(tel|t[ée]l[ée]?phone?|phone|fax|e-?mail|mobil)(?![\p{L}])/iu;

/**
 * A window's form-of-address line over the name (DIN 5008 and its neighbours: "Firma", "Herrn", "Frau", "An",
 * "Monsieur", "Spett.le"): the name is the line under it.
 */
const ADDRESS_FORM =
  /^(firma|fa\.|herrn?|frau|familie|eheleute|an(?: die| das| den)?|monsieur|madame|mme|messieurs|spett\.?\s?le|egr\.?|sig\.?(?:ra)?)[.:]?$/iu;

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
    if (DOC_WORD.test(` ${value.replace(/[.:!]+$/, "")}`) || ADDRESS_FORM.test(value)) return false; // "FACTUUR.", "Firma"
    if (TITLE.test(value)) return false; // nor a title with its number ("Rechnung 3009000003")
    if (CONTACT.test(value)) return false; // nor a letterhead's contact line ("Tel. 030 1234 · info@acme.de")
    if (!plausible("party", value)) return false; // nor a section heading ("VON", "Bill to") or a bare "GmbH"
    out.push({ line, start, end, value, score, why });
    return true;
  };
  for (const hit of buyerHeadings(lines)) {
    const rest = hit.line.text.slice(hit.end).replace(/^[\s:]*(address|adresse|adres)?[\s:]*/i, "");
    const row = rest.trim() ? null : below(hit, lines, 1)[0];
    // The invoice's customer is whom it is billed to: a ship-to block beside it names where goods go.
    const ship = SHIP_TO.test(hit.label);
    if (row)
      nameOf(
        row,
        ship ? 0.46 : 0.5,
        `first line under the ${ship ? "ship-to" : "buyer"} heading "${hit.line.text.slice(hit.start, hit.end)}"`,
      );
  }
  const [, height] = uprightSize(first);
  const issuer = issuerCandidates(lines)[0];
  const seller = sellerBlocks(lines).words;
  const page = lines.filter((l) => l.page === first && l.box[1] < height * 0.5).sort((a, b) => a.box[1] - b.box[1]);
  // Each line is asked once: the address search below asks again for the lines above every block.
  const senders = new Set(page.filter((l) => senderLineName(l, page)));
  // Under a sender line the window's first line is the recipient, whatever blocks (a letterhead) stand above it.
  for (const sender of senders) {
    const window = windowUnder(sender, page);
    if (window && nameOf(window, 0.55, "first line of the window address under the sender line")) return out;
  }
  const sameAsIssuer = issuerNameTest(issuer);
  const returnAddresses = new Set<Line>();
  const sellerLines = new Set<Line>();
  for (let i = 0; i < page.length; i++) {
    // The sender line over the window names the seller: the recipient's block starts under it.
    if (senders.has(page[i]!) || sellerLines.has(page[i]!)) continue;
    const block = blockAt(page, i);
    // An address has no amounts (item rows of a table are no address).
    if (block.some(hasDecimalAmount)) continue;
    // Under a sender line the window holds the address: a name over a postcode and town is enough.
    const windowed = page.some(
      (l) =>
        l.box[1] < page[i]!.box[1] &&
        l.box[3] > page[i]!.box[1] - Math.max(lineHeight(l) * 2.5, noteZone(page[i]!)) &&
        (returnAddresses.has(l) || senders.has(l)),
    );
    if (block.length < (windowed ? 2 : 3) || !block.slice(1).some(isAddressLine) || tagline(block)) continue;
    // A return address in one line over the window (its type not told apart from the address's, its name maybe
    // read otherwise than the issuer's elsewhere): the block under it is the recipient's.
    if (oneLineAddress(block[0]!.text)) {
      returnAddresses.add(block[0]!);
      continue;
    }
    // The seller's own block (its address under "From"/"Von"), or the issuer's address block, all of it.
    const sellers = block.some((l) => l.words.some((w) => seller.has(w.word)));
    // Its lines start no block; lines between them may (a buyer's block beside a seller column reaching below it).
    if (sellers || (issuer && block.some((l) => l === issuer.line || sameAsIssuer(l)))) {
      for (const l of block) sellerLines.add(l);
      continue;
    }
    if (/\d/.test(block[0]!.text) && STREET.test(block[0]!.text)) continue; // a street, not a name
    // An information block beside the window ("Rechnungsnr. 4711 / Kundennr. 75545 / Seite 1 von 2"): its number
    // rows look like streets and postcodes, but its first row is a label.
    if (DETAIL_ROW.test(block[0]!.text)) continue;
    if (nameOf(block[0]!, 0.42, "first line of the recipient's address block")) break;
  }
  return out;
}

/**
 * The line prints an amount with decimals. Such an amount ends in a mark and a digit the text itself holds (amounts
 * are read from the text with dates and times blanked out, never added to): most lines are settled by that, and the
 * blocks overlap, so a line is asked up to six times.
 */
function hasDecimalAmount(line: Line): boolean {
  return /[.,]\d/.test(line.text) && findAmounts(line.text).some((a) => a.decimals);
}

/** The lines of the block starting at `page[i]`: close under one another, left edges aligned, at most six. */
function blockAt(page: Line[], i: number): Line[] {
  const block = [page[i]!];
  for (let j = i + 1; j < page.length && block.length < 6; j++) {
    const prev = block[block.length - 1]!;
    const next = page[j]!;
    if (next.box[1] - prev.box[3] > lineHeight(prev) * 1.2) break;
    if (Math.abs(next.box[0] - block[0]!.box[0]) > lineHeight(prev)) continue;
    block.push(next);
  }
  return block;
}

/**
 * A tagline in larger type over an address ("Dat betaal ik zelf wel." over the buyer's name) is no name line. It reads
 * as a sentence (its end punctuated, or two words or more in lower case); a name in larger or bold type over its
 * street ("Amtsgericht Oldenburg") is none.
 */
const tagline = (block: Line[]) =>
  typeHeight(block[0]!.words) > typeHeight(block[1]!.words) * 1.3 && sentenceLike(block[0]!.text);
const sentenceLike = (text: string) =>
  /[.!?]\s*$/u.test(text.trim()) || text.split(/\s+/).filter((w) => /^\p{Ll}/u.test(w)).length >= 2;

/** A street or postcode line of an address ("USt 19 %" is a tax rate's label, not a street; no dates). */
const isAddressLine = (l: Line): boolean =>
  (STREET.test(l.text) || POSTCODE.test(l.text)) && !/[:%]/.test(l.text) && !findDates(l.text, "dmy").length;

/** The line right under `line` with its left edge (the name under a window's "Firma" line). */
function lineUnder(line: Line, page: Line[]): Line | undefined {
  const lh = lineHeight(line);
  return page.find(
    (l) =>
      l.box[1] > line.box[1] + lh * 0.5 && l.box[1] - line.box[3] < lh * 1.5 && Math.abs(l.box[0] - line.box[0]) < lh,
  );
}

/**
 * The window's first line under a sender line (past the empty note zone, noteZone): when OCR lost the window's
 * lines, a table header further down is no address. Grain read as a line of its own (";" between the sender line and
 * the window, or "hi" 9 px tall under 30 px type) is passed over.
 */
function windowUnder(sender: Line, page: Line[]): Line | undefined {
  const lh = lineHeight(sender);
  const type = typeHeight(sender.words);
  const first = page.find(
    (l) =>
      /[\p{L}\p{N}]{2}/u.test(l.text) &&
      typeHeight(l.words) > type * 0.6 &&
      l.box[1] > sender.box[1] + lh * 0.5 &&
      l.box[1] - sender.box[3] < Math.max(lh * 3, noteZone(l)) &&
      Math.abs(l.box[0] - sender.box[0]) < lh * 2,
  );
  // "Firma" / "Herrn" over the name: the name is the line under it.
  return first && ADDRESS_FORM.test(first.text.slice(0, sameBlockEnd(first, 0)).trim())
    ? lineUnder(first, page)
    : first;
}
