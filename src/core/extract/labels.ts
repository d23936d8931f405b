/**
 * Label search over word geometry: where a label is printed, and where its value sits (right of it on the same line,
 * or below it in the same column).
 */
import { unionBox } from "../geometry";
import { type Line, type LineWord, levelY, lineHeight, rateRow, xOverlap } from "./lines";
import type { Box } from "../model";
import { editDistance, fold, fuzzyMatches, tokensOf } from "./fuzzy";
import { tick } from "./gc-pace";
import { candidateRanks, infoOf, labelIndex, searchPlan } from "./label-index";
import { compiledOf, holdsWords, rankRegex } from "./label-regex";
import { inAddressToken } from "./word-bounds";
import { pushAll } from "../arrays";

export interface LabelHit {
  line: Line;
  /** Character range of the label in `line.text`. */
  start: number;
  end: number;
  label: string;
  /** 0 = the most specific label of the list. */
  rank: number;
  box: Box;
  /** Matched with an OCR error allowance (see fuzzy.ts). */
  fuzzy?: boolean;
}

/** Exclusion words folded and lower-cased, per list (the lists are a project's settings: one Set per field). */
const NONE = new Set<string>();
const foldedSets = new WeakMap<string[], Set<string>>();
function foldedSet(words: string[]): Set<string> {
  if (words.length === 0) return NONE;
  let set = foldedSets.get(words);
  if (!set) foldedSets.set(words, (set = new Set(words.map((w) => fold(w.toLowerCase())))));
  return set;
}

/**
 * True when the label sits inside running text: a lower-case word right before it and right after it, no colon
 * ("... sent to the address below ...", "à l'adresse suivante"). Printed labels stand alone or end in a colon.
 */
function inSentence(text: string, start: number, end: number): boolean {
  // Both tests need a word before the label, and that word ends at a space or an apostrophe right before it: a label
  // opening its line or glued to a mark (most hits) is settled without slicing and searching the line.
  if (!SPACE_OR_APOSTROPHE.test(text.charAt(start - 1))) return false;
  const before = /(\p{L}+)[’'\s]+$/u.exec(text.slice(Math.max(0, start - 40), start))?.[1] ?? "";
  if (before === "") return false;
  const after = /^\s+(\p{L}+)/u.exec(text.slice(end, end + 40))?.[1] ?? "";
  if (/^\p{Ll}/u.test(before) && /^\p{Ll}{2,}/u.test(after)) return true;
  // German capitalises nouns, so the word before says little: in a long line of prose, a label between two words
  // with a lower-case word after it ("Ihrer Kunden- und Rechnungsnummer an") is running text, not a label.
  const next = /^[\p{L}]*[-–]?\s+(\p{L}+)/u.exec(text.slice(end, end + 40))?.[1] ?? "";
  return before !== "" && /^\p{Ll}{2,}/u.test(next) && text.trim().split(/\s+/).length >= 8;
}

/** What ends the word before a label in inSentence (its regex's `[’'\s]`). */
const SPACE_OR_APOSTROPHE = /^[’'\s]$/u;

const NUMBER_MARKS = new Set(["n", "no", "nr", "nº", "num", "o"]);
/**
 * The word before a label past a number sign ("no" if `mark`), "of" or a rate ("INCLUDES 6% GST"); none: "zzgl. 19 %".
 */
function wordBefore(text: string, at: number, mark: boolean): string {
  const head = text.slice(Math.max(0, at - 40), at);
  const unrated = head.replace(/(?<![\p{L}\p{N}])\d{1,2}(?:[.,]\d{1,2})?\s?%\s*$/u, "");
  const words = unrated.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const word = words.pop() ?? "";
  if (unrated !== head && (word === "zzgl" || word === "plus")) return "";
  return NUMBER_MARKS.has(word) ? (mark ? "no" : (words.pop() ?? "")) : word === "of" ? (words.pop() ?? "") : word;
}
const wordAfter = (text: string, at: number) =>
  /^[\s.:\-]*([\p{L}\p{N}%]+)/u.exec(text.slice(at))?.[1]?.toLowerCase() ?? "";

/**
 * `word` is in `words`; on an OCR page also when one character of it is one OCR mistakes for the listed word's
 * ("Total VAI" is "Total VAT": the total's label must not take the VAT amount), for words of three letters or more.
 */
function hasWord(words: Set<string>, word: string, ocr: boolean): boolean {
  if (words.has(word)) return true;
  if (!ocr || word.length < 3) return false;
  for (const w of words) if (w.length === word.length && editDistance(word, w, 1) <= 1) return true;
  return false;
}

/**
 * True when the qualifying word before or after a label belongs to it ("Order Date", "Total excl."): it must sit
 * in the same block, not in the next column of a header row ("Invoice No.      Date" names two columns). Word
 * spaces are a quarter of the line height; a gap of a full line height separates columns.
 */
function qualified(line: Line, start: number, end: number, before: Set<string>, after: Set<string>): boolean {
  const text = infoOf(line).folded;
  const near = (a: LineWord | undefined, b: LineWord | undefined) =>
    !a || !b || a === b || b.box[0] - a.box[2] <= lineHeight(line);
  const ocr = line.page.text_source === "ocr";
  // The words around the label are looked for only once a qualifying word is found (most hits have none).
  if (before.size && hasWord(before, wordBefore(text, start, before.has("no")), ocr)) {
    const first = line.words.find((w) => w.end > start);
    const prev = line.words.findLast(
      (w) => w.start < start && /[\p{L}\p{N}]/u.test(line.text.slice(w.start, Math.min(w.end, start))),
    );
    if (near(prev, first) && !rateRow(line, start, end, prev)) return true;
  }
  if (after.size && hasWord(after, wordAfter(text, end), ocr)) {
    const last = line.words.findLast((w) => w.start < end);
    const next = line.words.find(
      (w) => w.end > end && /[\p{L}\p{N}%]/u.test(line.text.slice(Math.max(w.start, end), w.end)),
    );
    if (near(last, next)) return true;
  }
  return false;
}

/** A label's words run across a column gap ("Issue date   Due by" is no "date due"). */
function spansColumns(line: Line, words: LineWord[]): boolean {
  for (let i = 1; i < words.length; i++) if (words[i]!.box[0] - words[i - 1]!.box[2] > lineHeight(line)) return true;
  return false;
}

/**
 * Every hit of `labels` on `lines`, best rank first. A hit inside a better-ranked hit on the same line is dropped;
 * a hit preceded by an `excludeBefore` word or followed by an `excludeAfter` word is dropped.
 */
export function findLabels(
  lines: Line[],
  labels: string[],
  excludeBefore: string[] = [],
  excludeAfter: string[] = [],
): LabelHit[] {
  const before = foldedSet(excludeBefore);
  const after = foldedSet(excludeAfter);
  const hits: LabelHit[] = [];
  const index = labelIndex(labels);
  const compiled = compiledOf(labels);
  const plan = searchPlan(lines, index);
  const searched = plan ? plan.lines : lines;
  for (let l = 0; l < searched.length; l++) {
    const line = searched[l]!;
    tick();
    const lineHits: LabelHit[] = [];
    const info = infoOf(line);
    const checkWords = info.plain;
    for (const rank of plan ? plan.ranks[l]! : candidateRanks(line, index)) {
      if (checkWords && !holdsWords(info.lower, compiled.after[rank]!)) continue;
      const label = labels[rank]!;
      const text = info.folded;
      // exec, not matchAll (a regex clone per line and label); an empty match moves on one code point, as there.
      const re = rankRegex(compiled, labels, rank, line.page.text_source === "ocr");
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === "") re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
        const start = m.index;
        const end = start + m[0].length;
        // A longer label around a better-ranked one is more specific ("Factura rectificativa No." around "Factura").
        if (
          lineHits.some(
            (h) =>
              start < h.end && end > h.start && !(start <= h.start && end >= h.end && end - start > h.end - h.start),
          )
        )
          continue;
        if (qualified(line, start, end, before, after) || inSentence(line.text, start, end)) continue;
        if (inAddressToken(line.text, start, end)) continue;
        const words = line.words.filter((w) => w.start < end && w.end > start);
        if (spansColumns(line, words)) continue;
        lineHits.push({ line, start, end, label, rank, box: unionBox(words.map((w) => w.box)) });
      }
    }
    if (line.page.text_source === "ocr") {
      const tokens = tokensOf(line.text);
      labels.forEach((label, rank) => {
        for (const { start, end } of fuzzyMatches(tokens, label)) {
          if (lineHits.some((h) => start < h.end && end > h.start)) continue;
          if (qualified(line, start, end, before, after) || inSentence(line.text, start, end)) continue;
          if (inAddressToken(line.text, start, end)) continue;
          const words = line.words.filter((w) => w.start < end && w.end > start);
          if (spansColumns(line, words)) continue;
          lineHits.push({ line, start, end, label, rank, box: unionBox(words.map((w) => w.box)), fuzzy: true });
        }
      });
    }
    pushAll(hits, lineHits);
  }
  return hits.sort((a, b) => a.rank - b.rank);
}

/**
 * Lines below the label (up to `maxLines`, stopping at a vertical gap of more than 2.5 line heights), each cut down
 * to the words that sit in the label's column: words overlapping the label box horizontally, extended to the
 * neighbouring words of the same run (values are often wider than their label).
 */
const sortedByPage = new WeakMap<Line[], Map<Line["page"], Line[]>>();
/** The page's lines sorted top to bottom, computed once per line list. */
function linesByTop(lines: Line[], page: Line["page"]): Line[] {
  let byPage = sortedByPage.get(lines);
  if (!byPage) sortedByPage.set(lines, (byPage = new Map()));
  let sorted = byPage.get(page);
  if (!sorted) byPage.set(page, (sorted = lines.filter((l) => l.page === page).sort((a, b) => a.box[1] - b.box[1])));
  return sorted;
}

export function below(hit: LabelHit, lines: Line[], maxLines = 3): Line[] {
  const out: Line[] = [];
  const top = hit.line.box[3] - lineHeight(hit.line) * 0.3;
  // A long line of a skewed scan starts above the label's line at one end: it is under the label where its words
  // are under the label's own foot.
  const foot = hit.box[3] - lineHeight(hit.line) * 0.3;
  const reaches = (l: Line) => l.box[1] < top && l.box[3] > hit.box[3] + lineHeight(hit.line) * 0.5;
  const pageLines = linesByTop(lines, hit.line.page).filter((l) => l.box[1] >= top || reaches(l));
  let lastBottom = hit.line.box[3];
  let examined = 0;
  for (const line of pageLines) {
    // A line wholly beside the column is another column's text (OCR reads columns as separate lines).
    if (line === hit.line || line.box[2] < hit.box[0] || line.box[0] > hit.box[2]) continue;
    // OCR reads rules and grain as lines of marks ("—", "©"): they neither hold a value nor close the column.
    if (!/[\p{L}\p{N}]/u.test(line.text)) continue;
    const column = columnWords(line, hit.box).filter((w) => line.box[1] >= top || w.box[1] >= foot);
    if (line.box[1] < top && !column.length) continue;
    // Lines count whether or not they have words in the column: a value sits right under its label.
    if (examined++ >= maxLines || line.box[1] - lastBottom > lineHeight(hit.line) * 2.5) break;
    lastBottom = line.box[3];
    if (column.length) out.push(subLine(line, column));
    // A line spanning the column with nothing in it (a table header row around the gap) closes the column.
    else if (xOverlap(line.box, hit.box) > 0) break;
  }
  return out;
}

/**
 * The lines standing right of the label on the same row, nearest first, when OCR put them into lines of their own
 * (separate text blocks: "Grand Total" on the left, "Rs 1939" far right). Measured on the levelled page (a scan's
 * skew moves a far-right value a line up or down), their vertical centres must lie within the label's line, give or
 * take a quarter line for the skew OCR left unmeasured (0.5° is 17 px over a 200-DPI page); of lines in one column
 * the one nearest the label's height is taken.
 */
export function rowPartners(hit: LabelHit, lines: Line[]): Line[] {
  const { page, box } = hit.line;
  const cx = (box[0] + box[2]) / 2;
  const [top, bottom] = [levelY(page, cx, box[1]), levelY(page, cx, box[3])];
  const slack = (bottom - top) * 0.25;
  const offset = (line: Line) =>
    Math.abs(levelY(page, (line.box[0] + line.box[2]) / 2, (line.box[1] + line.box[3]) / 2) - (top + bottom) / 2);
  const near = linesByTop(lines, page).filter(
    (line) => line !== hit.line && line.box[0] >= box[2] && offset(line) <= (bottom - top) / 2 + slack,
  );
  return near
    .filter((line) => !near.some((o) => o !== line && xOverlap(o.box, line.box) > 0 && offset(o) < offset(line)))
    .sort((a, b) => a.box[0] - b.box[0]);
}

/** Words of `line` overlapping `box` horizontally, plus the words glued to
 * their right (gap below one line height): a value may be wider than its label, but starts under it. */
function columnWords(line: Line, box: Box): LineWord[] {
  const idx = line.words.map((w, i) => (xOverlap(w.box, box) > 0 ? i : -1)).filter((i) => i >= 0);
  if (!idx.length) return [];
  const first = idx[0]!;
  let last = idx[idx.length - 1]!;
  const gapLimit = lineHeight(line) * 0.9;
  const gap = (a: LineWord, b: LineWord) => b.box[0] - a.box[2];
  while (last + 1 < line.words.length && gap(line.words[last]!, line.words[last + 1]!) < gapLimit) last++;
  return line.words.slice(first, last + 1);
}

/** A line made of some of another line's words (text and offsets rebuilt). */
export function subLine(line: Line, words: LineWord[]): Line {
  let text = "";
  const rebuilt: LineWord[] = [];
  for (const w of words) {
    if (text) text += " ";
    const start = text.length;
    text += w.word.text;
    rebuilt.push({ word: w.word, box: w.box, start, end: text.length });
  }
  return { page: line.page, index: line.index, text, words: rebuilt, box: unionBox(words.map((w) => w.box)) };
}

/**
 * End offset of the block of words right of `offset`: the block starts at the first word with a letter or digit
 * (however far right) and stops at a horizontal gap wider than three line heights (the next column).
 */
export function sameBlockEnd(line: Line, offset: number): number {
  const words = line.words.filter((w) => w.end > offset);
  const first = words.findIndex((w) => /[\p{L}\p{N}]/u.test(line.text.slice(Math.max(w.start, offset), w.end)));
  if (first < 0) return words.length ? words[words.length - 1]!.end : offset;
  let end = words[first]!.end;
  for (let i = first + 1; i < words.length; i++) {
    if (words[i]!.box[0] - words[i - 1]!.box[2] > lineHeight(line) * 3) break;
    end = words[i]!.end;
  }
  return end;
}
