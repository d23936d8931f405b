/**
 * Which of a first page's top lines may be its letterhead (parties.ts, letterheadCandidate): a line that reads as a
 * name, or the first cell of a spreadsheet row whose name shares it with a label and value ("Kevin's Handyman
 * Services    Due 11/25/2024"); and whether a name stands in larger type than the details under it, as a seller's
 * sheet prints it and a window address (one size throughout) does not.
 */
import { minOf } from "../arrays";
import { cellsOf, type Line, uprightSize } from "./lines";
import { DOC_WORD } from "./name-start";
import { findDates } from "./normalize";
import { letters } from "./word-bounds";

/** Text of `words` words that may be a name: letters, no label's colon, document word, date, contact or long number. */
export const nameLike = (text: string, words: number): boolean =>
  letters(text) >= 3 &&
  words <= 6 &&
  !/[\p{L}]:/u.test(text) &&
  !DOC_WORD.test(` ${text}`) &&
  !findDates(text, "dmy").some((d) => d.iso) &&
  !/[@#_]|www\.|https?:|\d{3,}/i.test(text);

/**
 * The first cell of a row that is no name as a whole, when the cell is one: it opens the row in the page's left half
 * with two words or more (a lone "Date" beside its value is a label).
 */
export function firstNameCell(l: Line): readonly [number, number] | undefined {
  const cells = cellsOf(l);
  const [s, e] = cells[0]!;
  const words = l.words.filter((w) => w.start >= s && w.end <= e);
  const left = words[0]!.box[0] < uprightSize(l.page)[0] / 2;
  return cells.length > 1 && left && words.length >= 2 && nameLike(l.text.slice(s, e), words.length)
    ? ([s, e] as const)
    : undefined;
}

/**
 * Whether the first cell of `line` stands in type a fifth larger than one of the next two lines of words in `sorted`
 * (a name over its details). Median word heights: a descender or an "@" makes one word's box taller, not the line's
 * type, and OCR boxes vary by a few pixels, so the smaller of the two lines' medians is the details' type.
 */
export function overLine(line: Line, sorted: Line[]): boolean {
  const median = (ws: Line["words"]) => ws.map((w) => w.box[3] - w.box[1]).sort((a, b) => a - b)[ws.length >> 1]!;
  const next = sorted
    .slice(sorted.indexOf(line) + 1)
    .filter((l) => letters(l.text) >= 3)
    .slice(0, 2);
  const [, end] = cellsOf(line)[0]!;
  const name = median(line.words.filter((w) => w.end <= end));
  return next.length > 0 && name >= 1.2 * minOf(next.map((l) => median(l.words)));
}
