/**
 * Where a company name starts before its legal form, and what a document calls itself (a name before that word in a
 * title line is the issuer's). Apart from parties.ts because names-fuller.ts needs it and parties.ts uses that.
 */
import { afterSpeck } from "./specks";

/** What a document calls itself: a name before it in a title line is the issuer's. */
export const DOC_WORD =
  /\s+(tax invoice|invoice|receipt|rechnung|quittung|factuur|facture|reçu|factura|fattura|faktura|recibo|ricevuta|credit note|gutschrift)\s*$/iu;
/** Words joining the words of a company name ("Marks and Spencer", "Van der Berg"). */
const CONNECTOR = /^(&|and|und|en|et|y|e|of|de|der|den|van|von|du|la|le|des|di|del|da|-|\+)$/iu;
/** Words a signature puts before the firm it signs for ("For", "pp."; not "Per", a first name in Scandinavia). */
const SIGNING = /^(for|pp\.?|p\.p\.)$/iu;

/**
 * Where the company name before a legal form starts: the run of capitalised words (and connectors) right before
 * it, after any " - ", " | " or ":" separator, at most six words: "… at the end of this Invoice Amazon Web Services,
 * Inc." gives "Amazon Web Services, Inc.".
 */
export function nameStart(text: string, formAt: number): number {
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
  // A name does not start with a connector, a document word, a mark or the "For" of a signature ("For Kelly
  // Electrical Pty Ltd / Authorised Signatory").
  let rest = text.slice(start, formAt);
  while (true) {
    const m = /^(\S+)\s+/.exec(rest);
    if (
      !m ||
      !(CONNECTOR.test(m[1]!) || SIGNING.test(m[1]!) || DOC_WORD.test(` ${m[1]}`) || /^[^\p{L}\p{N}]+$/u.test(m[1]!))
    )
      break;
    start += m[0].length;
    rest = rest.slice(m[0].length);
  }
  return start;
}
