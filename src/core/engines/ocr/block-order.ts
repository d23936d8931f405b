/**
 * The reading order of a page's text blocks (layout-blocks.ts), as a reader takes them:
 * - the page is first cut into horizontal slabs where no block crosses; a slab with blocks side by side (columns)
 *   is kept with its neighbour when that has columns too (both columns of a region may pause at the same height),
 *   while a slab of blocks stacked one above the other (a title, a dateline, a page footer) is read on its own,
 *   before or after the columns by its position;
 * - within a slab, block a comes before block b when they overlap horizontally and a starts higher, or when a lies
 *   wholly left of b and no block between them vertically overlaps both (a heading across the columns ends them),
 *   after Breuel's rules for text lines (High Performance Document Layout Analysis, 2003), here for blocks: a
 *   caption between two columns follows both, a column read to its end before the next begins.
 */
import { pushAll } from "../../arrays";
import type { TextBlock, Rect } from "./layout-types.ts";

export function orderBlocks(blocks: TextBlock[]): TextBlock[] {
  return slabsOf(blocks.map(core)).flatMap(orderSlab);
}

/**
 * The block with the horizontal extent of most of its lines: a stray word OCR read in the gutter (a speck, a letter
 * of the next column) must not make a column overlap its neighbour. One line in ten on each side is left out (one at
 * least, from three lines on).
 */
export function core(block: TextBlock): TextBlock {
  const n = block.segments.length;
  const x1s = block.segments.map((s) => s.x1).sort((a, b) => a - b);
  const x2s = block.segments.map((s) => s.x2).sort((a, b) => a - b);
  // At least one line from three on: a short block with one stray word reaches into the next column as much.
  const skip = n >= 3 ? Math.max(1, Math.floor(n / 10)) : 0;
  return { ...block, x1: x1s[skip]!, x2: x2s[n - 1 - skip]! };
}

function overlapsY(a: Rect, b: Rect): boolean {
  return Math.min(a.y2, b.y2) > Math.max(a.y1, b.y1);
}

function overlapsX(a: Rect, b: Rect): boolean {
  return Math.min(a.x2, b.x2) > Math.max(a.x1, b.x1);
}

/**
 * Some two blocks of the slab stand side by side, one of them over two lines or more: a line cut at a gutter (a
 * running header with its page number on the right, a title) is a line, read on its own before the columns.
 */
function hasColumns(slab: TextBlock[]): boolean {
  return slab.some((a, i) =>
    slab.some(
      (b, j) => j > i && overlapsY(a, b) && !overlapsX(a, b) && Math.max(a.segments.length, b.segments.length) >= 2,
    ),
  );
}

/** Horizontal slabs top to bottom, neighbours with columns merged (see the file's comment). */
function slabsOf(blocks: TextBlock[]): TextBlock[][] {
  const sorted = [...blocks].sort((a, b) => a.y1 - b.y1);
  const slabs: TextBlock[][] = [];
  let bottom = -Infinity;
  for (const b of sorted) {
    if (slabs.length && b.y1 < bottom) slabs[slabs.length - 1]!.push(b);
    else slabs.push([b]);
    bottom = Math.max(bottom, b.y2);
  }
  const merged: TextBlock[][] = [];
  for (const slab of slabs) {
    const last = merged[merged.length - 1];
    if (last && hasColumns(last) && hasColumns(slab)) pushAll(last, slab);
    else merged.push(slab);
  }
  return merged;
}

/** a must be read before b (see the file's comment). */
function before(a: TextBlock, b: TextBlock, all: TextBlock[]): boolean {
  if (overlapsX(a, b)) return a.y1 < b.y1 || (a.y1 === b.y1 && a.x1 < b.x1);
  if (a.x2 > b.x1) return false;
  const top = Math.min(a.y2, b.y2);
  const bottom = Math.max(a.y1, b.y1);
  if (top >= bottom) return true;
  return !all.some((c) => c !== a && c !== b && c.y1 >= top && c.y2 <= bottom && overlapsX(c, a) && overlapsX(c, b));
}

/**
 * A topological order of the slab's blocks under `before`; among blocks free to go, the highest (then leftmost)
 * first. The rules can contradict each other on odd layouts: a cycle is broken at its highest block.
 */
function orderSlab(slab: TextBlock[]): TextBlock[] {
  const n = slab.length;
  if (n < 2) return slab;
  const preds = slab.map((b) => new Set<number>());
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (i !== j && before(slab[i]!, slab[j]!, slab)) preds[j]!.add(i);
  const done = new Set<number>();
  const out: TextBlock[] = [];
  const rank = (i: number, j: number) => slab[i]!.y1 - slab[j]!.y1 || slab[i]!.x1 - slab[j]!.x1;
  while (out.length < n) {
    const left = [...Array(n).keys()].filter((i) => !done.has(i));
    const free = left.filter((i) => [...preds[i]!].every((p) => done.has(p)));
    const next = (free.length ? free : left).sort(rank)[0]!;
    done.add(next);
    out.push(slab[next]!);
  }
  return out;
}
