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
 * A name has a word of letters only (a customer number such as "SCONL0303" is no name); an address has a digit
 * (street number or postcode).
 */
export function plausible(kind: ValueKind, value: unknown): boolean {
  if (kind === "party") return /(?<![\p{L}\p{N}])\p{L}{2,}(?![\p{L}\p{N}])/u.test(String(value));
  if (kind === "address") return /\d/.test(String(value));
  return true;
}

export const where = (line: Line) => `page ${line.page.page_number}, line ${line.index + 1}`;
