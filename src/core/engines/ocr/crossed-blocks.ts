/**
 * Blocks of text that tesseract's line finding ran into a neighbouring block. Two blocks side by side whose lines
 * keep their own baselines (an invoice's address window beside its details column, 10 pt lines beside 9 pt ones)
 * are often found as one text line per row across both: on a deskewed scan the rows of the two blocks, a third of a
 * line apart, merge into lines two rows tall, and what is recognised on them is garbled ("rods ie Mannheim" for
 * "Landesamt für Statistik Mannheim"). Each block read on its own reads right. Here the words' geometry finds such
 * blocks (words close to one another, by row and by line, apart from the rest by a wide gap), a line of the first
 * reading that runs across a wide gap from one block into another, and a block so crossed whose reading looks
 * damaged (words two rows tall, or low confidence): its region is read again (stages/ocr/block-reread.ts) and the
 * new reading replaces the old when it is surer of itself (see replaceBlock).
 */
import { minOf } from "../../arrays";
import type { Box, Word } from "../../model.ts";
import { grain } from "./gutters.ts";
import { median } from "./layout-types.ts";
import { meanConfidence, renumberLines, textOfWords } from "./tsv.ts";
import type { OcrResult } from "./types.ts";

/** Words on one row this many word heights apart or closer belong to one block (word spaces are ~0.3-0.6). */
const ROW_JOIN = 1.6;
/** Lines this many word heights apart or closer (the blank between lines of a block) belong to one block. */
const LINE_JOIN = 0.9;
/** A line crosses from one block into another over a gap at least this many word heights wide. */
const GUTTER = 2.5;
/** Two blocks are side by side when at least this many lines of the first reading cross between them. */
const MIN_CROSSINGS = 2;
/** A word this many word heights tall takes in two rows (a row's pitch is ~1.7 word heights). */
const TWO_ROWS = 2.2;
/** Pieces of a line whose middles stand this many word heights apart are on rows of their own. */
const OFFSET = 0.25;
/** A new line joins a kept line whose words' middles are this many word heights from its own or closer. */
const ROW = 0.4;
/** A word this many word heights tall covers two rows: its line was found across rows. */
const TALL = 1.6;
/** A crossed block is read again when its words' mean confidence is below this (or a word is two rows tall). */
const DOUBTFUL = 0.8;
/** At most this many blocks of a page are read again. */
const MAX_BLOCKS = 8;
/** The new reading replaces the old when its mean confidence is at least this much higher. */
const BETTER_BY = 0.05;

const hasText = (w: Word) => /[\p{L}\p{N}]/u.test(w.text);
const heightOf = (w: Word) => w.bounding_box[3] - w.bounding_box[1];
const middleOf = (w: Word) => (w.bounding_box[1] + w.bounding_box[3]) / 2;

/**
 * Regions of `words` (boxes in the image read, `width` × `height` px) to read again: the boxes of crossed, damaged
 * blocks, padded by up to half a word height where no other word stands.
 */
export function crossedBlocks(words: Word[], width: number, height: number): Box[] {
  const texty = words.filter(hasText);
  const h = median(texty.map(heightOf));
  if (texty.length < 6 || !(h > 0)) return [];
  const block = blocksOf(texty, h);
  // Lines crossing between two blocks, by the pair: a gutter the first reading ran across on one line only (a
  // stray word, one row of a table) is no pair of blocks side by side, unless that line stands two rows tall.
  const pairs = new Map<string, Set<number>>();
  const byLine = new Map<number, Word[]>();
  for (const w of texty) if (typeof w.line === "number") byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  for (const [n, line] of byLine) {
    const sorted = [...line].sort((a, b) => a.bounding_box[0] - b.bounding_box[0]);
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1]!, sorted[i]!];
      const [ba, bb] = [block.get(a)!, block.get(b)!];
      if (ba === bb || b.bounding_box[0] - a.bounding_box[2] < GUTTER * h) continue;
      // One row across (a label and its value, a table's row) is a line rightly found; rows apart are not.
      const middle = (id: number) => median(sorted.filter((w) => block.get(w) === id).map(middleOf));
      const tall = sorted.some((w) => heightOf(w) > TALL * h && /\p{L}/u.test(w.text));
      if (!tall && Math.abs(middle(ba) - middle(bb)) < OFFSET * h) continue;
      const key = `${Math.min(ba, bb)}:${Math.max(ba, bb)}`;
      pairs.set(key, (pairs.get(key) ?? new Set()).add(n));
      // A word two rows tall on it: the line was found across rows, evidence enough on its own.
      if (sorted.some((w) => heightOf(w) > TWO_ROWS * h && /\p{L}{2}/u.test(w.text))) pairs.get(key)!.add(-1);
    }
  }
  const crossed = new Set<number>();
  for (const [key, lines] of pairs) if (lines.size >= MIN_CROSSINGS) for (const id of key.split(":")) crossed.add(+id);
  const boxes: Box[] = [];
  for (const id of crossed) {
    const members = texty.filter((w) => block.get(w) === id);
    if (members.length < 2) continue;
    const damaged = members.some((w) => heightOf(w) > TALL * h && /\p{L}/u.test(w.text)) || meanOf(members) < DOUBTFUL;
    if (damaged) boxes.push(padded(members, texty, h, width, height));
  }
  return boxes.slice(0, MAX_BLOCKS);
}

/** Block ids of words: joined when on one row a short gap apart, or on neighbouring lines overlapping in x. */
function blocksOf(words: Word[], h: number): Map<Word, number> {
  const parent = words.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!.bounding_box;
    for (let j = i + 1; j < words.length; j++) {
      const b = words[j]!.bounding_box;
      const yGap = Math.max(a[1], b[1]) - Math.min(a[3], b[3]);
      const xGap = Math.max(a[0], b[0]) - Math.min(a[2], b[2]);
      const sameRow = -yGap >= 0.3 * Math.min(a[3] - a[1], b[3] - b[1]);
      if ((sameRow && xGap <= ROW_JOIN * h) || (xGap < 0 && yGap <= LINE_JOIN * h)) parent[find(i)] = find(j);
    }
  }
  return new Map(words.map((w, i) => [w, find(i)]));
}

function meanOf(words: Word[]): number {
  const chars = words.reduce((n, w) => n + w.text.length, 0);
  return words.reduce((s, w) => s + w.confidence * w.text.length, 0) / Math.max(1, chars);
}

/** The union box of `members`, each side padded by up to h/2 short of any other word, within the image. */
function padded(members: Word[], all: Word[], h: number, width: number, height: number): Box {
  const box = members.map((w) => w.bounding_box).reduce((u, b) => unionOf(u, b));
  const others = all.filter((w) => !members.includes(w)).map((w) => w.bounding_box);
  const overlapsY = (b: Box) => b[3] > box[1] && b[1] < box[3];
  const overlapsX = (b: Box) => b[2] > box[0] && b[0] < box[2];
  const room = (gaps: number[]) => Math.max(0, Math.min(h / 2, minOf(gaps.filter((g) => g >= 0).map((g) => g - 1))));
  return [
    Math.max(0, Math.floor(box[0] - room(others.filter(overlapsY).map((b) => box[0] - b[2])))),
    Math.max(0, Math.floor(box[1] - room(others.filter(overlapsX).map((b) => box[1] - b[3])))),
    Math.min(width, Math.ceil(box[2] + room(others.filter(overlapsY).map((b) => b[0] - box[2])))),
    Math.min(height, Math.ceil(box[3] + room(others.filter(overlapsX).map((b) => b[1] - box[3])))),
  ];
}

function unionOf(a: Box, b: Box): Box {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/**
 * `result` with the words whose centre lies in `box` replaced by `read` (the region read on its own, boxes relative
 * to the region), when `read` is better: surer of itself by BETTER_BY, or, where the old words stood two rows tall
 * (lines found across rows, read confidently wrong: "Gemeindewer" | "k e Mannheim"), without such words and about as
 * sure; and it keeps at least half the letters. Else `result`. A new line on the row of a line its words shared with words
 * kept beside the block (see rowMate) joins that line; the others stand where the first replaced word stood.
 * Lines are numbered 1, 2, … again.
 */
export function replaceBlock(result: OcrResult, box: Box, read: OcrResult): OcrResult {
  const inside = (w: Word) => {
    const [x1, y1, x2, y2] = w.bounding_box;
    const [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
    return cx >= box[0] && cx <= box[2] && cy >= box[1] && cy <= box[3];
  };
  const h = median(result.words.filter(hasText).map(heightOf));
  const old = result.words.filter((w) => inside(w) && hasText(w));
  const fresh = read.words.filter(hasText);
  const letters = (ws: Word[]) => ws.reduce((n, w) => n + (w.text.match(/\p{L}/gu)?.length ?? 0), 0);
  if (!old.length || !fresh.length || letters(fresh) < letters(old) / 2) return result;
  const tall = (ws: Word[]) => ws.some((w) => heightOf(w) > TALL * h && /\p{L}/u.test(w.text));
  const surer = meanOf(fresh) >= meanOf(old) + BETTER_BY;
  const mended = tall(old) && !tall(fresh) && meanOf(fresh) >= Math.min(meanOf(old) - 2 * BETTER_BY, DOUBTFUL);
  if (!surer && !mended) return result;
  const placed = new Map<number | undefined, Word[]>();
  // Grain the block's reading took for marks or short letters ("M" between two rows) is left out, as on columns.
  for (const w of read.words.filter((w) => !grain(w, h))) {
    const b = w.bounding_box;
    const moved = { ...w, bounding_box: [b[0] + box[0], b[1] + box[1], b[2] + box[0], b[3] + box[1]] as Box };
    placed.set(w.line, [...(placed.get(w.line) ?? []), moved]);
  }
  let words = result.words.filter((w) => !inside(w));
  let at = result.words.slice(0, result.words.findIndex(inside)).filter((w) => !inside(w)).length;
  let id = 0;
  for (const line of placed.values()) {
    const row = rowMate(words, line, old, h);
    if (row === undefined) {
      const own = line.map((w) => ({ ...w, line: id - 1 }));
      id--;
      words = [...words.slice(0, at), ...own, ...words.slice(at)];
      at += own.length;
      continue;
    }
    const first = words.findIndex((w) => w.line === row);
    const last = words.findLastIndex((w) => w.line === row);
    const joined = [...words.slice(first, last + 1), ...line.map((w) => ({ ...w, line: row }))];
    joined.sort((a, b) => a.bounding_box[0] - b.bounding_box[0]);
    words = [...words.slice(0, first), ...joined, ...words.slice(last + 1)];
    if (first < at) at += line.length;
  }
  words = renumberLines(words);
  return { ...result, words, text: textOfWords(words), confidence: meanConfidence(words) };
}

/**
 * The line of `words` that `line` joins: one the replaced words `old` shared with a word beside the block in the first
 * reading (a label and its value, a table's cells), whose words there stand on the line's row (middles within ROW
 * word heights). A line is never joined to one the first reading kept apart (the next column's heading on its row).
 */
function rowMate(words: Word[], line: Word[], old: Word[], h: number): number | undefined {
  const middle = median(line.filter(hasText).map(middleOf));
  const onRow = (w: Word) => hasText(w) && Math.abs(middleOf(w) - middle) < ROW * h;
  const shared = new Set(old.filter(onRow).map((w) => w.line));
  return words.find((w) => typeof w.line === "number" && shared.has(w.line) && onRow(w))?.line;
}
