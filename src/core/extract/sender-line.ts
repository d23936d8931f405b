/**
 * The one-line addresses over a window envelope's address field: the sender's return line (DIN 5008
 * "Rücksendeangabe") and a whole address run into one line, as text layers and OCR give them.
 */
import { type Line, lineHeight } from "./lines";
import { sameBlockEnd } from "./labels";
import { POSTCODE, STREET } from "./party-blocks";

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
    .split(ADDRESS_PARTS)
    .map((p) => p.trim());
  if (parts.length < 2 || !parts.slice(1).some((p) => POSTCODE.test(p) || STREET.test(p))) return null;
  const lh = typeHeight(own);
  const next = pageLines
    .filter(
      (l) =>
        l.page === line.page &&
        l.box[1] > line.box[1] + lh * 0.5 &&
        Math.abs(l.box[0] - line.box[0]) < lh * 2 &&
        // A speck of grain read as a line of its own ("hi", 9 px tall under 30 px type) is no address line.
        /[\p{L}\p{N}]{2}/u.test(l.text) &&
        typeHeight(l.words) > lh * 0.6,
    )
    .reduce<Line | undefined>((a, b) => (!a || b.box[1] < a.box[1] ? b : a), undefined);
  if (!next || lh > typeHeight(next.words) * 0.85 || next.box[1] - line.box[3] > noteZone(next)) return null;
  const first = parts[0]!.replace(/^[^\p{L}\p{N}]+/u, "");
  // A letterhead's own address line ("Hauptstr. 5 · 12345 Berlin") starts with a street, not a name; a separator
  // OCR lost leaves the street in the name's part ("M. Meier Handwerk GbR Hauptstraße 2 - 12345 Musterstadt").
  const street = STREET.exec(first);
  const name = street ? first.slice(0, street.index).trim() : first;
  return /\p{L}{2,}/u.test(name) && !/\d{3,}/.test(name) ? name : null;
}

/**
 * How far under a return line the window's address may start: DIN 5008 puts the return line at the top of the
 * window, over a note zone of three lines ("Einschreiben", left blank on most invoices; 12.7 mm) and then the
 * address, so up to about three of the address's lines may lie empty between them.
 */
export const noteZone = (address: Line) => lineHeight(address) * 3;

/**
 * The height of a line's type: the lower quartile of the heights of its words of two letters or digits (all its
 * words when none). On a scan one word's box may take in a speck of grain above or below it (a 6.5 pt sender line's
 * "Marktplatz" 41 px tall beside its other words' 19-21 px), and on a skewed page a long word's box is taller than a
 * short one's by its width times the skew ("Steuerberatung" 32 px beside "UG" 21 px at 1.5°): the short words tell
 * the type.
 */
export function typeHeight(words: Line["words"]): number {
  const solid = words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.word.text));
  const heights = (solid.length ? solid : words).map((w) => w.box[3] - w.box[1]).sort((a, b) => a - b);
  return heights[heights.length >> 2] ?? 0;
}
