/**
 * Line-level repair across column gutters, for OCR words: the fallback of `orderByLayout` (reading-order.ts) on pages
 * that are not mostly prose columns (invoices with address blocks or key-value panes side by side, faxes, phone
 * photos). Measured on the golden inbox: without it, the phone photo's total and tax fall below the review threshold.
 * Tesseract finds columns itself on a clean upright page, but
 * on a scan whose skew was misjudged, or one read as a single column, it runs its text lines across the gutter of a
 * two-column page: every word right, the columns interleaved line by line. Here the words' own geometry decides:
 * the skew is measured from the words' baselines and undone, columns are found as whitespace gutters that run down
 * a stretch of lines (a recursive cut, like XY-cut, that keeps a heading across both columns above them), and the
 * words are read block by block, line by line.
 *
 * It only repairs: a reading whose lines never cross a column gutter is returned as it was, so pages tesseract
 * read well (invoices, forms, single columns) keep tesseract's order and line numbers.
 */
import type { Word } from "../../model.ts";
import { meanConfidence, textOfWords } from "./tsv.ts";
import type { OcrResult } from "./types.ts";
import { median, type Interval, type Item } from "./layout-types.ts";
import { maxOf, minOf } from "../../arrays";

/** Fewer words than this make no columns worth finding. */
const MIN_WORDS = 30;
/** A gutter is at least this many median word heights wide (word spaces of justified prose stay below ~0.8). */
const GUTTER = 0.8;
/** Each side of a gutter holds at least this many lines ... */
const MIN_COLUMN_LINES = 4;
/** ... whose median width is at least this many word heights (about 15 characters: prose, not labels and values). */
const MIN_COLUMN_WIDTH = 10;
/** Lines of the first reading that must cross an accepted gutter before its order is replaced. */
const MIN_CROSSING_LINES = 2;
/** Words taller than this many median heights do not chain lines into one band. */
const TALL = 1.8;
/** Recursion depth of the cut (columns within columns). */
const MAX_DEPTH = 6;

/**
 * `result` with its words in layout reading order and lines renumbered, when its lines cross a column gutter;
 * otherwise `result` itself. Boxes are those of the image that was read (upright, any residual skew allowed).
 */
export function repairAcrossGutters(result: OcrResult): OcrResult {
  const words = result.words;
  if (words.length < MIN_WORDS) return result;
  const height = median(words.map((w) => w.bounding_box[3] - w.bounding_box[1]));
  if (!(height > 0)) return result;
  const items = deskewed(words, lineSlope(words, height));
  const gutters: Gutter[] = [];
  const lines = readBlock(items, height, 0, gutters);
  if (crossingLines(gutters) < MIN_CROSSING_LINES) return result;
  const ordered: Word[] = [];
  lines.forEach((line, i) => {
    for (const item of line) ordered.push({ ...item.word, line: i + 1 });
  });
  return { ...result, words: ordered, text: textOfWords(ordered), confidence: meanConfidence(ordered) };
}

/**
 * The slope (dy/dx) of the text lines: the median least-squares slope of the first reading's lines of three words
 * or more spanning at least three word heights. Lines that run across a gutter still follow one baseline.
 */
export function lineSlope(words: Word[], height: number): number {
  const byLine = new Map<number, Word[]>();
  for (const w of words) if (typeof w.line === "number") byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const slopes: number[] = [];
  for (const line of byLine.values()) {
    if (line.length < 3) continue;
    const pts = line.map((w) => [(w.bounding_box[0] + w.bounding_box[2]) / 2, w.bounding_box[3]] as const);
    const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
    const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
    if (Math.sqrt(sxx / pts.length) < 3 * height) continue;
    slopes.push(pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx);
  }
  return slopes.length < 3 ? 0 : median(slopes);
}

/** Word boxes with their centres turned by the lines' slope, so that lines run level (sizes kept). */
export function deskewed(words: Word[], slope: number): Item[] {
  const norm = Math.hypot(1, slope);
  const cos = 1 / norm;
  const sin = slope / norm;
  return words.map((word) => {
    const [x1, y1, x2, y2] = word.bounding_box;
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    const x = cx * cos + cy * sin;
    const y = -cx * sin + cy * cos;
    return { word, x1: x - (x2 - x1) / 2, y1: y - (y2 - y1) / 2, x2: x + (x2 - x1) / 2, y2: y + (y2 - y1) / 2 };
  });
}

/**
 * Lines of `items` in reading order. The best column gutter of the block (see bestGutter) splits it into what lies
 * above the gutter's run of bands, its left column, its right column and what lies below, each read the same way in
 * that order; a block without one is read band by band (rows of vertically overlapping words, left to right).
 */
function readBlock(items: Item[], height: number, depth: number, gutters: Gutter[]): Item[][] {
  if (items.length === 0) return [];
  const bands = bandsOf(items, height);
  const found = depth < MAX_DEPTH ? bestGutter(bands, height) : null;
  if (!found) return bands.map((band) => [...band].sort((a, b) => a.x1 - b.x1));
  const { from, to, gap } = found;
  const run = bands.slice(from, to + 1).flat();
  gutters.push({ items: run, gap });
  const middle = (gap[0] + gap[1]) / 2;
  const centre = (i: Item) => (i.x1 + i.x2) / 2;
  // Above and below are smaller than the block (the run is not empty), so they end the recursion too.
  return [
    ...readBlock(bands.slice(0, from).flat(), height, depth, gutters),
    ...readBlock(
      run.filter((i) => centre(i) < middle),
      height,
      depth + 1,
      gutters,
    ),
    ...readBlock(
      run.filter((i) => centre(i) >= middle),
      height,
      depth + 1,
      gutters,
    ),
    ...readBlock(bands.slice(to + 1).flat(), height, depth, gutters),
  ];
}

interface Gutter {
  items: Item[];
  gap: Interval;
}

/**
 * The run of consecutive bands and the x-interval, at least GUTTER heights wide and inside the block, that no word
 * of the run covers, with a column of prose on each side (see isColumn); of several, the one with most words.
 * Words without two letters or digits that are narrower than a height (specks read as "." or "'") do not block a
 * gutter.
 */
function bestGutter(bands: Item[][], height: number): { from: number; to: number; gap: Interval } | null {
  const all = bands.flat();
  const lo = minOf(all.map((i) => i.x1));
  const hi = maxOf(all.map((i) => i.x2));
  const min = GUTTER * height;
  const frees = bands.map((band) =>
    freeOf(
      band.filter((i) => solid(i, height)),
      lo,
      hi,
    ),
  );
  let best: { from: number; to: number; gap: Interval; words: number } | null = null;
  const seen = new Set<string>();
  for (let from = 0; from < bands.length; from++) {
    for (const start of frees[from]!) {
      if (!(start[0] > lo && start[1] < hi && start[1] - start[0] >= min)) continue;
      let gap = start;
      let to = from;
      while (to + 1 < bands.length) {
        const next = intersect([gap], frees[to + 1]!).find(([a, b]) => b - a >= min);
        if (!next) break;
        gap = next;
        to++;
      }
      const key = `${to}:${Math.round(gap[0])}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const run = bands.slice(from, to + 1).flat();
      if (best && run.length <= best.words) continue;
      const middle = (gap[0] + gap[1]) / 2;
      const centre = (i: Item) => (i.x1 + i.x2) / 2;
      if (
        isColumn(
          run.filter((i) => centre(i) < middle),
          height,
        ) &&
        isColumn(
          run.filter((i) => centre(i) >= middle),
          height,
        )
      ) {
        best = { from, to, gap, words: run.length };
      }
    }
  }
  return best;
}

function solid(item: Item, height: number): boolean {
  return item.x2 - item.x1 >= height || /[\p{L}\p{N}]{2}/u.test(item.word.text);
}

/**
 * Items grouped by vertical overlap of the middle half of their heights, top to bottom. Items much taller than
 * `height` (a drop cap, a big heading next to text) would chain the lines beside them into one: they join the band
 * at their top line instead, or make a band of their own.
 */
function bandsOf(items: Item[], height: number): Item[][] {
  const tall = (i: Item) => i.y2 - i.y1 > TALL * height;
  const sorted = items.filter((i) => !tall(i)).sort((a, b) => a.y1 + a.y2 - b.y1 - b.y2 || a.x1 - b.x1);
  const bands: Array<{ items: Item[]; top: number; bottom: number }> = [];
  for (const item of sorted) {
    const q = (item.y2 - item.y1) / 4;
    const last = bands[bands.length - 1];
    if (last && item.y1 + q <= last.bottom) {
      last.items.push(item);
      last.bottom = Math.max(last.bottom, item.y2 - q);
      continue;
    }
    bands.push({ items: [item], top: item.y1 + q, bottom: item.y2 - q });
  }
  for (const item of items.filter(tall)) {
    const at = item.y1 + height / 2;
    const band = bands.find(
      (b) =>
        at >= b.top - height / 4 &&
        at <= b.bottom + height / 4 &&
        b.items.some((i) => i.x2 >= item.x1 - 2 * height && i.x1 <= item.x2 + 2 * height),
    );
    if (band) band.items.push(item);
    else bands.push({ items: [item], top: item.y1, bottom: item.y2 });
  }
  return bands.sort((a, b) => a.top - b.top).map((b) => b.items);
}

/** Free space of one band: the complement of its words in [lo, hi]. */
function freeOf(band: Item[], lo: number, hi: number): Interval[] {
  const spans = band.map((i) => [i.x1, i.x2] as Interval).sort((a, b) => a[0] - b[0]);
  const free: Interval[] = [];
  let reach = lo;
  for (const [a, b] of spans) {
    if (a > reach) free.push([reach, a]);
    reach = Math.max(reach, b);
  }
  if (hi > reach) free.push([reach, hi]);
  return free;
}

function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [a1, a2] of a)
    for (const [b1, b2] of b) if (Math.min(a2, b2) > Math.max(a1, b1)) out.push([Math.max(a1, b1), Math.min(a2, b2)]);
  return out;
}

function isColumn(items: Item[], height: number): boolean {
  if (items.length === 0) return false;
  const lines = bandsOf(items, height);
  if (lines.length < MIN_COLUMN_LINES) return false;
  const widths = lines.map((l) => maxOf(l.map((i) => i.x2)) - minOf(l.map((i) => i.x1)));
  return median(widths) >= MIN_COLUMN_WIDTH * height;
}

/** First-reading lines with words on both sides of an accepted gutter. */
function crossingLines(gutters: Gutter[]): number {
  const crossing = new Set<number>();
  for (const { items, gap } of gutters) {
    const sides = new Map<number, number>();
    for (const i of items) {
      if (typeof i.word.line !== "number") continue;
      const side = i.x2 <= gap[0] + 1 ? 1 : i.x1 >= gap[1] - 1 ? 2 : 0;
      sides.set(i.word.line, (sides.get(i.word.line) ?? 0) | side);
    }
    for (const [line, mask] of sides) if (mask === 3) crossing.add(line);
  }
  return crossing.size;
}
