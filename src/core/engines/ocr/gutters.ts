/**
 * Gutters of a page's bands of OCR words (layout-blocks.ts): the gaps between words that are whitespace running
 * down the page between columns, not the spaces of a justified line nor the gaps between a table's cells.
 */
import { maxOf, minOf } from "../../arrays";
import type { Word } from "../../model.ts";
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
/** A paragraph's first line is indented by at most this many word heights. */
const INDENT = 3;
/** A mark without letters or digits read at this confidence or more is ink that blocks a gutter. */
const SURE_MARK = 0.7;
/** A word read below this confidence may have its box swollen by noise beside it (see clipIntoGutters). */
const DOUBTFUL_WORD = 0.5;
const UP_DOWN = [
  [-1, 1],
  [1, -1],
] as const;

/** Per band (rows of words, top to bottom), its gutters: see gutterGaps, then run on through neighbouring bands. */
export function guttersOf(bands: Item[][], height: number): Interval[][] {
  const gaps = bands.map((_, i) => gutterGaps(bands, i, height));
  // A gap around the middle of a neighbour's gutter, and not much narrower, is one too (beside a lone word, or a
  // short line, its band caught): a gutter runs on through the bands it stays free in, between words (a table's
  // amounts stay whole); the space beside a picture does not narrow into a word space.
  for (let grew = true; grew; ) {
    grew = false;
    bands.forEach((band, i) => {
      // Two bands either way: columns whose lines keep their own baselines (after a table or a picture in one)
      // alternate bands, a line of one between two of the other.
      const near = [i - 2, i - 1, i + 1, i + 2].flatMap((j) => gaps[j] ?? []);
      for (const g of wideGaps(band, height)) {
        const known = gaps[i]!.some((k) => k[0] === g[0]);
        const inline = near.some(
          (n) => g[0] <= (n[0] + n[1]) / 2 && (n[0] + n[1]) / 2 <= g[1] && g[1] - g[0] >= (n[1] - n[0]) / 2,
        );
        if (!known && ((inline && lettersBeside(band, g)) || columnGoesOn(band, g, near, height))) {
          gaps[i]!.push(g);
          grew = true;
        }
      }
    });
  }
  return gaps;
}

/**
 * Grain of a scan read as a mark: a dot far smaller than the lettering (a third of a word height both ways) that OCR
 * is not sure of (an ellipsis's dots it reads at 0.83-0.91, grain at 0-0.76), a mark without a letter or digit it
 * doubts, or a short letter-only reading it doubts more (as stages/ocr/specks.ts judges a till roll's). Between
 * columns it would stand as lines of its own, or carry a line into the next column.
 */
export function grain(w: Word, height: number): boolean {
  const [x1, y1, x2, y2] = w.bounding_box;
  if (x2 - x1 < height * 0.35 && y2 - y1 < height * 0.35 && w.confidence < 0.8) return true;
  if (!/[\p{L}\p{N}]/u.test(w.text)) return w.confidence < 0.5;
  return w.confidence < 0.25 && !/\d/.test(w.text) && [...w.text].length <= 3;
}

/**
 * Specks read as "." or "'" narrower than a word height do not block a gutter, nor do marks without a letter or digit
 * that OCR doubts, however wide: grain and JPEG noise in the gutter of a 200-DPI scan read as "~~." (0.62) carried a
 * line of one column into the next.
 */
function solid(item: Item, height: number): boolean {
  if (/[\p{L}\p{N}]/u.test(item.word.text)) return true;
  return item.x2 - item.x1 >= height && item.word.confidence >= SURE_MARK;
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
  // The run is looked for upwards first, then downwards first: a gutter just under a table in one column (its
  // amounts beside the gutter are no text) runs on below it, as one just above a table runs on above it.
  const runs = (start: Interval) =>
    UP_DOWN.some((steps) => {
      const narrow = runOf(bands, i, start, height, GUTTER * height, NARROW_GUTTER_BANDS, steps);
      const wide = runOf(bands, i, start, height, WIDE_GUTTER * height, GUTTER_BANDS, steps).length >= GUTTER_BANDS;
      if (!wide && narrow.length < NARROW_GUTTER_BANDS) return false;
      // Beside the gap as it stays free in each band: where a column runs on beside a picture or a table in the next
      // one, the gap narrows to the gutter, and the page's middle would fall on the table's cells.
      const texty = narrow.filter(([j, [a, b]]) => textBeside(bands[j]!, (a + b) / 2, height)).length;
      return texty >= Math.max(2, Math.ceil((2 * narrow.length) / 3));
    });
  return wideGaps(band, height).filter((start) => {
    if (!runs(start)) return false;
    const left = band.filter((w) => w.x2 <= start[0]);
    return isGutterSide(left, band.slice(left.length), height);
  });
}

/**
 * The words next to x on each side (one may be missing: another column on its own baseline) are words, more letters
 * than digits: not amounts, dates or codes. Specks are passed over.
 */
function textBeside(band: Item[], x: number, height: number): boolean {
  // Grain read as "-" or "~" in the gutter is no word beside it.
  const left = band.filter((w) => w.x2 <= x && solid(w, height));
  const right = band.filter((w) => w.x1 >= x && solid(w, height));
  const near = [left[left.length - 1], right[0]].filter((w) => w !== undefined);
  const wordy = (t: string) => (t.match(/\p{L}/gu)?.length ?? 0) > (t.match(/\p{N}/gu)?.length ?? 0);
  return near.length > 0 && near.every((w) => wordy(w.word.text));
}

/**
 * The bands in a row, band `i` among them, that leave at least `min` of `start` free (up to `enough` of them), each
 * with the part of the gap still free there; bands with no words near it are passed over.
 */
function runOf(
  bands: Item[][],
  i: number,
  start: Interval,
  height: number,
  min: number,
  enough: number,
  steps: readonly number[],
): Array<[number, Interval]> {
  if (start[1] - start[0] < min) return [];
  const run: Array<[number, Interval]> = [[i, start]];
  for (const step of steps) {
    let gap: Interval | null = start;
    for (let j = i + step; gap && j >= 0 && j < bands.length && run.length < enough; j += step) {
      // A band with no words near the gap (another column's line, on its own baseline) says nothing about it.
      const [a, b]: Interval = gap;
      if (!bands[j]!.some((w) => solid(w, height) && w.x2 >= a - 2 * height && w.x1 <= b + 2 * height)) continue;
      gap = within(gap, freeOf(bands[j]!, height), min);
      if (gap) run.push([j, gap]);
    }
  }
  return run;
}

/**
 * A column runs on beside `gap`: the word on one side of it is a figure (digits, no letters), the line on the other
 * is text that starts at the column edge of a neighbour's gutter (or a paragraph's indent after it), or prose
 * (PROSE_WIDTH heights up to the next wide space) that ends before that gutter, which `gap` spans. So a column
 * beside a table's amounts in the next one (no gutter by the other rules: no text on that side) is cut from it; a
 * word space of a justified line or a title has letters on both sides.
 */
function columnGoesOn(band: Item[], gap: Interval, near: Interval[], height: number): boolean {
  const left = band.filter((w) => w.x2 <= gap[0]);
  const right = band.filter((w) => w.x1 >= gap[1]);
  if (!left.length || !right.length) return false;
  const text = (side: Item[]) => side.some((w) => /\p{L}{3}/u.test(w.word.text));
  const prose = (side: Item[]) =>
    text(side) && maxOf(side.map((w) => w.x2)) - minOf(side.map((w) => w.x1)) >= PROSE_WIDTH * height;
  const figures = (w: Item) => /\p{N}/u.test(w.word.text) && !/\p{L}/u.test(w.word.text);
  const onRight = text(nearGap(right, false, height)) && figures(left[left.length - 1]!);
  const onLeft = prose(nearGap(left, true, height)) && figures(right[0]!);
  // A column's lines start at its edge or a paragraph's indent after it: the gap ends there. They end at its edge
  // (justified) or before (ragged): the gap starts there or before, and runs over the whole gutter.
  const tol = height / 2;
  return near.some(
    ([a, b]) =>
      Math.min(b, gap[1]) > Math.max(a, gap[0]) &&
      ((onRight && gap[1] - b >= -tol && gap[1] - b <= INDENT * height) ||
        (onLeft && gap[0] <= a + tol && gap[1] >= b - tol)),
  );
}

/** The words of `side` next to a gap up to the next wide space (2 heights: more than a justified line's widest). */
function nearGap(side: Item[], fromRight: boolean, height: number): Item[] {
  const words: Item[] = [];
  const ordered = fromRight ? [...side].reverse() : side;
  for (const w of ordered) {
    const last = words[words.length - 1];
    if (last && (fromRight ? last.x1 - w.x2 : w.x1 - last.x2) >= 2 * height) break;
    words.push(w);
  }
  return words;
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
  let before = height;
  for (const w of band) {
    if (!solid(w, height)) continue;
    // Between words of larger type (a title), a word space is wider: measured by the smaller of the two words.
    const local = Math.max(height, Math.min(before, w.y2 - w.y1));
    if (reach > -Infinity && w.x1 - reach >= GUTTER * local) out.push([reach, w.x1]);
    if (w.x2 >= reach) before = w.y2 - w.y1;
    reach = Math.max(reach, w.x2);
  }
  return out;
}

/**
 * Text on both sides of a gap, and prose (a long run of words) on one: columns of prose beside each other or
 * beside a caption. A table row keeps its cells together: amounts and codes are not text.
 */
function isGutterSide(left: Item[], right: Item[], height: number): boolean {
  const l = nearGap(left, true, height);
  const r = nearGap(right, false, height);
  const texty = (side: Item[]) => side.some((w) => /\p{L}{3}/u.test(w.word.text));
  const prose = (side: Item[]) => maxOf(side.map((w) => w.x2)) - minOf(side.map((w) => w.x1)) >= PROSE_WIDTH * height;
  return texty(l) && texty(r) && (prose(l) || prose(r));
}

/**
 * Bands whose doubtful words (read below DOUBTFUL_WORD) reach into a gutter that runs on above and below them have
 * those words' boxes cut back to the gutter's edge on the side where most of the word lies; null when none does.
 * Tesseract reads a word at confidence 0 when its box took in grain beside it: on a 200-DPI scan the first word of a
 * column's line reached 50 px into the gutter, and its band ran across both columns.
 */
export function clipIntoGutters(bands: Item[][], gaps: Interval[][], height: number): Item[][] | null {
  let clipped = false;
  const out = bands.map((band, i) => {
    const above = [i - 1, i - 2].flatMap((j) => gaps[j] ?? []);
    const below = [i + 1, i + 2].flatMap((j) => gaps[j] ?? []);
    const mid = (g: Interval) => (g[0] + g[1]) / 2;
    // A channel: a gutter above and one below that share their middle stretch, not yet a gutter in this band.
    const channels = above
      .filter((a) => below.some((b) => Math.min(a[1], b[1]) > Math.max(mid(a), mid(b)) - height / 2))
      .filter((a) => !gaps[i]!.some((g) => g[0] <= mid(a) && mid(a) <= g[1]));
    if (!channels.length) return band;
    return band.map((item) => {
      if (item.word.confidence >= DOUBTFUL_WORD) return item;
      const g = channels.find((c) => item.x1 < mid(c) && item.x2 > mid(c));
      if (!g) return item;
      const m = mid(g);
      const [x1, x2] =
        m - item.x1 < item.x2 - m ? [Math.max(item.x1, g[1]), item.x2] : [item.x1, Math.min(item.x2, g[0])];
      if (x2 - x1 < height / 2) return item;
      clipped = true;
      return { ...item, x1, x2 };
    });
  });
  return clipped ? out.map((band) => [...band].sort((p, q) => p.x1 - q.x1)) : null;
}
