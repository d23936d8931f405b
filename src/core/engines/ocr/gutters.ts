/**
 * Gutters of a page's bands of OCR words (layout-blocks.ts): the gaps between words that are whitespace running
 * down the page between columns, not the spaces of a justified line nor the gaps between a table's cells.
 */
import { maxOf, minOf } from "../../arrays";
import type { Interval, Item } from "./layout-types.ts";

/** A gutter is at least this many median word heights wide (word spaces of justified prose stay below ~0.8). */
const GUTTER = 0.8;
/** ... and stays free over at least this many consecutive bands when WIDE_GUTTER heights wide, ... */
const GUTTER_BANDS = 3;
const WIDE_GUTTER = 2;
/** ... else over this many (the spaces of a narrow justified column line up into rivers over a few lines). */
const NARROW_GUTTER_BANDS = 6;
/** A segment this many word heights wide (about 15 characters) is a line of prose. */
export const PROSE_WIDTH = 10;

/** Per band (rows of words, top to bottom), its gutters: see gutterGaps, then run on through neighbouring bands. */
export function guttersOf(bands: Item[][], height: number): Interval[][] {
  const gaps = bands.map((_, i) => gutterGaps(bands, i, height));
  // A gap around the middle of a neighbour's gutter, and not much narrower, is one too (beside a lone word, or a
  // short line, its band caught): a gutter runs on through the bands it stays free in, between words (a table's
  // amounts stay whole); the space beside a picture does not narrow into a word space.
  for (let grew = true; grew; ) {
    grew = false;
    bands.forEach((band, i) => {
      const near = (gaps[i - 1] ?? []).concat(gaps[i + 1] ?? []);
      for (const g of wideGaps(band, height)) {
        const known = gaps[i]!.some((k) => k[0] === g[0]);
        const inline = near.some(
          (n) => g[0] <= (n[0] + n[1]) / 2 && (n[0] + n[1]) / 2 <= g[1] && g[1] - g[0] >= (n[1] - n[0]) / 2,
        );
        if (!known && inline && lettersBeside(band, g)) {
          gaps[i]!.push(g);
          grew = true;
        }
      }
    });
  }
  return gaps;
}

/** Specks read as "." or "'" narrower than a word height do not block a gutter. */
function solid(item: Item, height: number): boolean {
  return item.x2 - item.x1 >= height || /[\p{L}\p{N}]/u.test(item.word.text);
}

/** Free space of one band: the complement of its solid words on the whole x axis. */
function freeOf(band: Item[], height: number): Interval[] {
  const free: Interval[] = [];
  let reach = -Infinity;
  for (const i of band) {
    if (!solid(i, height)) continue;
    if (i.x1 > reach) free.push([reach, i.x1]);
    reach = Math.max(reach, i.x2);
  }
  free.push([reach, Infinity]);
  return free;
}

/** The free part of `gap` in `free` that is at least `min` wide, the widest; null when none. */
function within(gap: Interval, free: Interval[], min: number): Interval | null {
  let best: Interval | null = null;
  for (const [a, b] of free) {
    const lo = Math.max(a, gap[0]);
    const hi = Math.min(b, gap[1]);
    if (hi - lo >= min && (!best || hi - lo > best[1] - best[0])) best = [lo, hi];
  }
  return best;
}

/**
 * The gaps between words of band `i` that are gutters: at least GUTTER heights wide, free in enough neighbouring
 * bands to make GUTTER_BANDS in a row (NARROW_GUTTER_BANDS when narrower than WIDE_GUTTER), with text beside them
 * in most of those bands (a table's header over rows of amounts is no column of text) and prose beside them in
 * band `i` (see isGutterSide).
 */
function gutterGaps(bands: Item[][], i: number, height: number): Interval[] {
  const band = bands[i]!.filter((w) => solid(w, height));
  return wideGaps(band, height).filter((start) => {
    const narrow = runOf(bands, i, start, height, GUTTER * height, NARROW_GUTTER_BANDS);
    const wide = runOf(bands, i, start, height, WIDE_GUTTER * height, GUTTER_BANDS).length >= GUTTER_BANDS;
    if (!wide && narrow.length < NARROW_GUTTER_BANDS) return false;
    const texty = narrow.filter((j) => textBeside(bands[j]!, (start[0] + start[1]) / 2)).length;
    if (texty < Math.max(2, Math.ceil((2 * narrow.length) / 3))) return false;
    const left = band.filter((w) => w.x2 <= start[0]);
    return isGutterSide(left, band.slice(left.length), height);
  });
}

/**
 * The words next to x on each side (one may be missing: another column on its own baseline) are words, more letters
 * than digits: not amounts, dates or codes.
 */
function textBeside(band: Item[], x: number): boolean {
  const left = band.filter((w) => w.x2 <= x);
  const right = band.filter((w) => w.x1 >= x);
  const near = [left[left.length - 1], right[0]].filter((w) => w !== undefined);
  const wordy = (t: string) => (t.match(/\p{L}/gu)?.length ?? 0) > (t.match(/\p{N}/gu)?.length ?? 0);
  return near.length > 0 && near.every((w) => wordy(w.word.text));
}

/**
 * The bands in a row, band `i` among them, that leave at least `min` of `start` free (up to `enough` of them);
 * bands with no words near it are passed over.
 */
function runOf(bands: Item[][], i: number, start: Interval, height: number, min: number, enough: number): number[] {
  if (start[1] - start[0] < min) return [];
  const run = [i];
  for (const step of [-1, 1]) {
    let gap: Interval | null = start;
    for (let j = i + step; gap && j >= 0 && j < bands.length && run.length < enough; j += step) {
      // A band with no words near the gap (another column's line, on its own baseline) says nothing about it.
      const [a, b]: Interval = gap;
      if (!bands[j]!.some((w) => w.x2 >= a - 2 * height && w.x1 <= b + 2 * height)) continue;
      gap = within(gap, freeOf(bands[j]!, height), min);
      if (gap) run.push(j);
    }
  }
  return run;
}

/** The words on each side of `gap` next to it have letters. */
function lettersBeside(band: Item[], gap: Interval): boolean {
  const left = band.filter((w) => w.x2 <= gap[0]);
  const right = band.filter((w) => w.x1 >= gap[1]);
  const letter = (w: Item | undefined) => w !== undefined && /\p{L}/u.test(w.word.text);
  return letter(left[left.length - 1]) && letter(right[0]);
}

/** The gaps at least GUTTER heights wide between the solid words of a band (sorted by x1). */
function wideGaps(band: Item[], height: number): Interval[] {
  const out: Interval[] = [];
  let reach = -Infinity;
  for (const w of band) {
    if (!solid(w, height)) continue;
    if (reach > -Infinity && w.x1 - reach >= GUTTER * height) out.push([reach, w.x1]);
    reach = Math.max(reach, w.x2);
  }
  return out;
}

/**
 * Text on both sides of a gap, and prose (a long run of words) on one: columns of prose beside each other or
 * beside a caption. A table row keeps its cells together: amounts and codes are not text.
 */
function isGutterSide(left: Item[], right: Item[], height: number): boolean {
  // The words next to the gap up to the next wide space (2 heights: more than a justified line's widest).
  const near = (side: Item[], fromRight: boolean) => {
    const words: Item[] = [];
    const ordered = fromRight ? [...side].reverse() : side;
    for (const w of ordered) {
      const last = words[words.length - 1];
      if (last && (fromRight ? last.x1 - w.x2 : w.x1 - last.x2) >= 2 * height) break;
      words.push(w);
    }
    return words;
  };
  const l = near(left, true);
  const r = near(right, false);
  const texty = (side: Item[]) => side.some((w) => /\p{L}{3}/u.test(w.word.text));
  const prose = (side: Item[]) => maxOf(side.map((w) => w.x2)) - minOf(side.map((w) => w.x1)) >= PROSE_WIDTH * height;
  return texty(l) && texty(r) && (prose(l) || prose(r));
}
