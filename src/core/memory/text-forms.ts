/** The forms memory compares texts in: a compact form of names, the shape of identifiers. */

/** A name without case, spacing or punctuation: "ACME GmbH." → "acmegmbh". */
export const compact = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

/** "NW/77/B" → "A/9/A": letter and digit runs collapsed, other characters kept (spaces dropped). */
export function shapeOf(text: string): string {
  return text
    .replace(/\s+/g, "")
    .replace(/\p{L}+/gu, "A")
    .replace(/\p{N}+/gu, "9");
}
