/**
 * Text blocks of a page from its OCR words' deskewed geometry (reading-order.ts orders them). Three steps:
 * - bands: rows of words that overlap vertically (a band may run across several columns);
 * - segments: each band cut at its gutters, the gaps that stay free over a run of bands (a whitespace channel down
 *   the page) with text on both sides, prose on at least one (a table's columns of numbers are not cut apart);
 * - blocks: segments chained down the page where each continues the one above it (overlapping, aligned on one edge
 *   or the centre, within about a blank line, of like height): a column, or a part of one, a caption, a heading.
 */
import { maxOf, minOf } from "../../arrays";
import { clipIntoGutters, guttersOf } from "./gutters.ts";
import { median, type TextBlock, type Interval, type Item, type Rect, type Segment } from "./layout-types.ts";

/** Words taller than this many median heights do not chain lines into one band. */
const TALL = 1.8;
/** Segments chain into a block across at most this many word heights of white (a blank line between paragraphs). */
const CHAIN_GAP = 1.6;
/** Edges this close (word heights) count as aligned. */
const ALIGN = 1.2;
/** Segments narrower than this many word heights do not fork a block. */
const FORK_WIDTH = 4;
/** Middles of the words of one line differ by at most this share of a word height. */
const LINE_JITTER = 0.4;
/** ... and by at most this share when OCR put them on one line. */
const SAME_LINE_JITTER = 0.7;
/** A paragraph's first line is indented by at most this many word heights. */
const INDENT = 3;
/** A line this many times wider than a block's lines spans beyond it (see spansBeyond). */
const WIDER = 1.5;

/** The blocks of `items`, in no particular order. `height` is the median word height. */
export function blocksOf(items: Item[], height: number): TextBlock[] {
  let bands = bandsOf(items, height);
  let gaps = guttersOf(bands, height);
  const clipped = clipIntoGutters(bands, gaps, height);
  if (clipped) [bands, gaps] = [clipped, guttersOf(clipped, height)];
  return chain(
    bands.map((band, i) => cutBand(band, gaps[i]!)),
    height,
  );
}

/**
 * Items grouped by vertical overlap of the middle half of their heights, top to bottom. Items much taller than
 * `height` (a drop cap, a big heading next to text) would chain the lines beside them into one: they join the band
 * at their top line instead, or make a band of their own.
 */
export function bandsOf(items: Item[], height: number): Item[][] {
  const tall = (i: Item) => i.y2 - i.y1 > TALL * height;
  const sorted = items.filter((i) => !tall(i)).sort((a, b) => a.y1 + a.y2 - b.y1 - b.y2 || a.x1 - b.x1);
  // Columns whose lines keep their own baselines can chain lines of one column into a band: split it where it holds
  // words above one another.
  const bands = overlapping(sorted).flatMap(unstack);
  for (const item of items.filter(tall)) {
    const at = item.y1 + height / 2;
    const beside = (b: (typeof bands)[number]) =>
      b.items.some((i) => i.x2 >= item.x1 - 2 * height && i.x1 <= item.x2 + 2 * height);
    const overlap = (b: (typeof bands)[number]) => Math.min(b.bottom, item.y2) - Math.max(b.top, item.y1);
    // Else the band beside it that it overlaps most: a word whose box grain or a stroke of the line above made tall
    // stays on its line instead of making one of its own (a line of one word breaks the column's block).
    const band =
      bands.find((b) => at >= b.top - height / 4 && at <= b.bottom + height / 4 && beside(b)) ??
      bands.filter((b) => beside(b) && overlap(b) > 0).sort((p, q) => overlap(q) - overlap(p))[0];
    if (band) band.items.push(item);
    else bands.push({ items: [item], top: item.y1, bottom: item.y2 });
  }
  return bands.sort((a, b) => a.top - b.top).map((b) => [...b.items].sort((p, q) => p.x1 - q.x1));
}

type Band = { items: Item[]; top: number; bottom: number };

/** Items (sorted by their middles) chained into bands while the middle halves of their heights overlap. */
function overlapping(sorted: Item[]): Band[] {
  const bands: Band[] = [];
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
  return bands;
}

/**
 * Words of one line never stand above one another: overlapping by a third of the narrower one, their middles half
 * a word height apart or more (OCR's garbage readings of one smudged word overlap at the same height).
 */
const stacked = (a: Item, b: Item) =>
  Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > Math.min(a.x2 - a.x1, b.x2 - b.x1) / 3 &&
  Math.abs(a.y1 + a.y2 - b.y1 - b.y2) / 2 >= Math.min(a.y2 - a.y1, b.y2 - b.y1) / 2;

/**
 * `band` as lines: itself when no two of its words stand above one another, else its words dealt top to bottom
 * (by their middles) to the first line they stand beside (no word above or below them there, middles within
 * LINE_JITTER of a word height of the line's first), the lines ordered by their tops.
 */
function unstack(band: Band): Band[] {
  if (!band.items.some((a, i) => band.items.some((b, j) => j > i && stacked(a, b)))) return [band];
  const mid = (i: Item) => (i.y1 + i.y2) / 2;
  const lines: Array<{ items: Item[]; at: number; lines: Set<number> }> = [];
  for (const item of [...band.items].sort((a, b) => mid(a) - mid(b))) {
    const h = item.y2 - item.y1;
    const fits = (l: (typeof lines)[number], jitter: number) =>
      Math.abs(l.at - mid(item)) <= jitter * h && !l.items.some((o) => stacked(o, item));
    // OCR's own line first: a word without ascenders sits lower than its line's first word, and a tall word of the
    // next column's line, on a baseline half a line lower, would otherwise take it for its own line.
    const line =
      lines.find((l) => item.word.line !== undefined && l.lines.has(item.word.line) && fits(l, SAME_LINE_JITTER)) ??
      lines.find((l) => fits(l, LINE_JITTER));
    if (line) line.items.push(item);
    else lines.push({ items: [item], at: mid(item), lines: new Set() });
    if (item.word.line !== undefined) (line ?? lines[lines.length - 1]!).lines.add(item.word.line);
  }
  return lines.map((l) => {
    const q = (i: Item) => (i.y2 - i.y1) / 4;
    return {
      items: l.items,
      top: minOf(l.items.map((i) => i.y1 + q(i))),
      bottom: maxOf(l.items.map((i) => i.y2 - q(i))),
    };
  });
}

/** A band's words cut at its gutters into segments, left to right. */
function cutBand(band: Item[], gaps: Interval[]): Segment[] {
  const out: Segment[] = [];
  let current: Item[] = [];
  for (const item of band) {
    const cut = gaps.some(([a, b]) => item.x1 >= b && current.some((c) => c.x2 <= a + 0.5));
    if (cut && current.length) {
      out.push(segmentOf(current));
      current = [];
    }
    current.push(item);
  }
  if (current.length) out.push(segmentOf(current));
  return out;
}

export function segmentOf(items: Item[]): Segment {
  return {
    items,
    x1: minOf(items.map((i) => i.x1)),
    y1: minOf(items.map((i) => i.y1)),
    x2: maxOf(items.map((i) => i.x2)),
    y2: maxOf(items.map((i) => i.y2)),
  };
}

/** Segments of consecutive bands chained into blocks (see continues). */
function chain(bands: Segment[][], height: number): TextBlock[] {
  const blocks: TextBlock[] = [];
  let open: TextBlock[] = [];
  const all = bands.flat();
  const forked = new Map<Segment, boolean>();
  for (const band of bands) {
    const taken = new Set<TextBlock>();
    // Blocks ending well above the band are done: nothing below can continue them (keeps a long page linear).
    const top = minOf(band.map((s) => s.y1));
    open = open.filter((b) => b.y2 >= top - (CHAIN_GAP + 2) * height);
    // A block with two segments side by side below it forks there (a heading above two columns): it ends.
    for (const block of open) {
      const last = block.segments[block.segments.length - 1]!;
      if (!forked.has(last)) forked.set(last, forks(last, all, height));
      if (forked.get(last)) taken.add(block);
    }
    for (const seg of band) {
      let best: TextBlock | null = null;
      let bestOverlap = 0;
      for (const block of open) {
        if (taken.has(block)) continue;
        const overlap = continues(block, seg, height);
        if (overlap > bestOverlap) [best, bestOverlap] = [block, overlap];
      }
      if (best) {
        best.segments.push(seg);
        Object.assign(best, grow(best, seg));
        taken.add(best);
      } else {
        const block: TextBlock = { segments: [seg], x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2 };
        blocks.push(block);
        open.push(block);
        taken.add(block);
      }
    }
  }
  return blocks;
}

/**
 * Two segments side by side, FORK_WIDTH heights wide or more (a speck read as ":" is no column), start within
 * CHAIN_GAP heights below `last`, each mostly under it.
 */
function forks(last: Segment, all: Segment[], height: number): boolean {
  const under = all.filter(
    (s) =>
      s.y1 >= last.y2 - height / 2 &&
      s.y1 - last.y2 <= CHAIN_GAP * height &&
      s.x2 - s.x1 >= FORK_WIDTH * height &&
      Math.min(s.x2, last.x2) - Math.max(s.x1, last.x1) >= 0.5 * (s.x2 - s.x1),
  );
  return under.some((a) => under.some((b) => a.x2 < b.x1));
}

/**
 * `seg` runs far beyond both the block's lines (a full-width note, caption or footer under a column, a heading over
 * it): WIDER times the block's width and past its edge by more than INDENT heights. A column's next line never is;
 * a block of one line (a heading, a short first line) has no width to go by.
 */
function spansBeyond(block: TextBlock, seg: Segment, height: number): boolean {
  if (block.segments.length < 2) return false;
  const width = median(block.segments.map((s) => s.x2 - s.x1));
  return (
    seg.x2 - seg.x1 > WIDER * width && (seg.x2 - block.x2 > INDENT * height || block.x1 - seg.x1 > INDENT * height)
  );
}

function grow(a: Rect, b: Rect): Rect {
  return { x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1), x2: Math.max(a.x2, b.x2), y2: Math.max(a.y2, b.y2) };
}

/**
 * How well `seg` continues `block`: the horizontal overlap with its lowest segment when `seg` lies below that within
 * CHAIN_GAP heights, overlaps at least half the narrower of the two, shares an edge with it or with the block (the
 * line after an indented one) or the centre, or is a paragraph's indented first line, and its words are of like
 * height; 0 otherwise.
 */
function continues(block: TextBlock, seg: Segment, height: number): number {
  const last = block.segments[block.segments.length - 1]!;
  const gap = seg.y1 - last.y2;
  if (gap > CHAIN_GAP * height || seg.y1 + seg.y2 <= last.y1 + last.y2) return 0;
  const overlap = Math.min(last.x2, seg.x2) - Math.max(last.x1, seg.x1);
  if (overlap < 0.5 * Math.min(last.x2 - last.x1, seg.x2 - seg.x1)) return 0;
  if (spansBeyond(block, seg, height)) return 0;
  const tol = ALIGN * height;
  const aligned =
    Math.min(Math.abs(last.x1 - seg.x1), Math.abs(block.x1 - seg.x1)) <= tol ||
    Math.min(Math.abs(last.x2 - seg.x2), Math.abs(block.x2 - seg.x2)) <= tol ||
    Math.abs(last.x1 + last.x2 - seg.x1 - seg.x2) <= 2 * tol ||
    (seg.x1 > last.x1 && seg.x1 - last.x1 <= INDENT * height);
  if (!aligned) return 0;
  // A drop cap is no measure of its line's type: beside it a caption's small capitals looked a third its height.
  const h = (s: Segment) => {
    const heights = s.items.map((i) => i.y2 - i.y1);
    return median(heights.filter((x) => x <= TALL * height)) || median(heights);
  };
  const ratio = h(seg) / Math.max(1, h(last));
  return ratio > 2.5 || ratio < 1 / 2.5 ? 0 : overlap;
}
