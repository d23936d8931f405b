/** A field value candidate and what every candidate search shares: the plausibility of a value, where a line is. */
import type { Line, Span } from "./lines";
import type { ValueKind, ValueMatch } from "./values";

export interface Candidate {
  match: ValueMatch;
  /** 0..1 before OCR confidence is applied. */
  score: number;
  reasoning: string;
  extraSpans?: Span[];
}

/**
 * A party section's heading is no party's name (side by side, "Buyer" reads "Seller" as the value right of it), nor
 * is the label of one of its rows ("Street" under "Seller" when OCR lost the name row).
 */
const PARTY_HEADING =
  /^\s*(seller|buyer|vendor|supplier|customer|client|verk[äa]ufer|k[äa]ufer|lieferant|kunde|rechnungssteller|rechnungsempf[äa]nger|leistungsempf[äa]nger|vendeur|acheteur|fournisseur|verkoper|koper|leverancier|klant|proveedor|comprador|cliente|vendedor|fornitore|acquirente|venditore|bill to|ship to|sold by|sold to|name|street|stra(ß|ss)e|postcode|plz|city|ort|country|land|contact|kontakt)\s*:?\s*$/iu;

/**
 * A name has a word of letters only (a customer number such as "SCONL0303" is no name); an address has a digit
 * (street number or postcode).
 */
export function plausible(kind: ValueKind, value: unknown): boolean {
  if (kind === "party")
    return /(?<![\p{L}\p{N}])\p{L}{2,}(?![\p{L}\p{N}])/u.test(String(value)) && !PARTY_HEADING.test(String(value));
  if (kind === "address") return /\d/.test(String(value));
  return true;
}

export const where = (line: Line) => `page ${line.page.page_number}, line ${line.index + 1}`;
