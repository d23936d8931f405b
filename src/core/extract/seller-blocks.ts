/**
 * Seller blocks: the lines under a seller heading ("From", "Von", "Seller", "Verkäufer", "Émetteur", ...). A SaaS
 * invoice prints "From" and "Bill to" side by side, often with the seller's name only in its logo line: the From
 * column is then a street, a town, an e-mail and a VAT ID. The block is the seller's: never the buyer's address
 * (recipient.ts), and a name at its top is the seller's (parties.ts).
 *
 * Contract: a heading counts only alone in its cell (nothing but a colon right of it before a column gap), at the
 * start of its line or of a cell, so "from" in a sentence or "Von 1 bis 3" starts no block. Pure, memoised per line
 * list.
 */
import type { Word } from "../model";
import { type Line, lineHeight } from "./lines";
import { below, findLabels, sameBlockEnd } from "./labels";
import { onlySpecksBefore } from "./specks";

export const SELLER_HEADINGS = [
  "from",
  "von",
  "seller",
  "vendor",
  "supplier",
  "sold by",
  "issued by",
  "verkäufer",
  "lieferant",
  "rechnungssteller",
  "absender",
  "vendeur",
  "fournisseur",
  "émetteur",
  "prestataire",
  "verkoper",
  "leverancier",
  "afzender",
  "proveedor",
  "vendedor",
  "emisor",
  "fornitore",
  "cedente",
  "mittente",
];

/** The heading line's cell holds the heading alone, and it starts the line or a cell. */
function aloneInCell(line: Line, start: number, end: number): boolean {
  const rest = line.text.slice(end, sameBlockEnd(line, end));
  if (/[\p{L}\p{N}]/u.test(rest.replace(/^\s*:/, ""))) return false;
  const i = line.words.findIndex((w) => w.end > start);
  if (i <= 0 || onlySpecksBefore(line, start)) return true;
  return line.words[i]!.box[0] - line.words[i - 1]!.box[2] > lineHeight(line) * 2;
}

const memo = new WeakMap<Line[], { words: Set<Word>; firstRows: Line[] }>();

/** The words of seller blocks, and the first row of each block (where a seller's name would stand). */
export function sellerBlocks(lines: Line[]): { words: Set<Word>; firstRows: Line[] } {
  const known = memo.get(lines);
  if (known) return known;
  const found = { words: new Set<Word>(), firstRows: [] as Line[] };
  memo.set(lines, found);
  for (const hit of findLabels(lines, SELLER_HEADINGS)) {
    if (!aloneInCell(hit.line, hit.start, hit.end)) continue;
    let last = hit.line.box;
    for (const [i, row] of below(hit, lines, 6).entries()) {
      if (i > 0 && row.box[1] - last[3] > Math.max(lineHeight(hit.line), lineHeight(row)) * 1.6) break;
      if (i === 0) found.firstRows.push(row);
      for (const w of row.words) found.words.add(w.word);
      last = row.box;
    }
  }
  return found;
}
