/** A field value candidate and what every candidate search shares: the plausibility of a value, where a line is. */
import type { Line, Span } from "./lines";
import type { ValueKind, ValueMatch } from "./values";
import { bareLegalForm, legalForm } from "./company";

export interface Candidate {
  match: ValueMatch;
  /** 0..1 before OCR confidence is applied. */
  score: number;
  reasoning: string;
  extraSpans?: Span[];
  /** The label's line, when the value was read from another line of its row (OCR put the value in a block of its own). */
  labelLine?: Line;
}

/**
 * A party section's heading is no party's name (side by side, "Buyer" reads "Seller" as the value right of it), nor
 * is the label of one of its rows ("Street" under "Seller" when OCR lost the name row).
 */
const PARTY_HEADING =
  /^\s*(seller|buyer|vendor|supplier|customer|client|verk[äa]ufer|k[äa]ufer|lieferant|kunde|rechnungssteller|rechnungsempf[äa]nger|leistungsempf[äa]nger|vendeur|acheteur|fournisseur|verkoper|koper|leverancier|klant|proveedor|comprador|cliente|vendedor|fornitore|acquirente|venditore|bill to|ship to|sold by|sold to|from|von|rechnung an|invoice to|billed to|factur[ée] [àa]|livr[ée] [àa]|name|street|stra(ß|ss)e|postcode|plz|city|ort|country|land|contact|kontakt)\s*:?\s*$/iu;

/** A street line with its house number ("Hauptstraße 97", "12 Main Street", "3 rue de la Paix"): no party's name. */
const STREET_LINE =
  /^(?=.*\d)(\d{1,5}[a-z]?,?\s+)?[\p{L}'\- ]*?(stra(ß|ss)e|str\.|weg|allee|platz|gasse|ring|damm|road|street|st\.|avenue|ave\.|lane|drive|rue|boulevard|chemin|laan|straat|plein|via|calle|avenida)(\s+\d{1,5}[a-z]?)?$/iu;

/**
 * A postcode and town, nothing else ("98765 Buyer City", "1012 AB Amsterdam", "SW1A 1AA London", "D-10115 Berlin"):
 * the address's last line, no name, unless a legal form says a company is named so (a Dutch postcode's letters
 * are no legal form: "1012 AB" is not an aktiebolag).
 */
const POSTCODE_TOWN =
  /^(\d{4,5}|\d{3}\s\d{2}|\d{4}\s?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|[A-Z]{1,2}-\d{4,5})\s+\p{Lu}[\p{L}'.\- ]*$/u;

/** A label with its date or number ("Date : 13/04/2018", "Kundennr.: 4711"): the row under a heading, no name. */
const LABELLED_NUMBER = /^\s*\p{L}[\p{L}\s.'-]{0,30}:\s*\d/u;

/**
 * A name has a word of letters only (a customer number such as "SCONL0303" is no name) and more than a legal form
 * ("Inc." right of the label "Seller" inside "Test Seller Inc."), a street (a block whose name is printed elsewhere,
 * as a SaaS invoice's "From" column) or a label with its value; an address has a digit (street number or postcode).
 */
export function plausible(kind: ValueKind, value: unknown): boolean {
  if (kind === "party") {
    const v = String(value);
    return (
      /(?<![\p{L}\p{N}])\p{L}{2,}(?![\p{L}\p{N}])/u.test(v) &&
      !PARTY_HEADING.test(v) &&
      !bareLegalForm(v) &&
      !STREET_LINE.test(v.trim()) &&
      !(POSTCODE_TOWN.test(v.trim()) && !legalForm(v.trim().replace(/^\d{4}\s?[A-Z]{2}\s/, ""))) &&
      !LABELLED_NUMBER.test(v)
    );
  }
  if (kind === "address") return /\d/.test(String(value));
  return true;
}

export const where = (line: Line) => `page ${line.page.page_number}, line ${line.index + 1}`;
