/**
 * Where things stand on a page, in terms that survive scanning: a point is given relative to the page's text (its
 * left edge and width, its top) and in units of the page's median word height, after undoing the skew the OCR
 * measured. A copy scanned at another DPI, shifted, cropped in its margins or turned a degree gives (nearly) the same
 * coordinates; absolute page fractions do not.
 */
import type { Box, Page } from "../model";
import { uprightSize, type Line, type LineWord } from "../extract/lines";
import { editDistance } from "../extract/fuzzy";

export interface Frame {
  left: number;
  top: number;
  bottom: number;
  width: number;
  unit: number;
  cx: number;
  cy: number;
  cos: number;
  sin: number;
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** The frame of one page, from its lines (upright boxes). */
export function frameOf(lines: Line[], page: Page): Frame {
  // Words with two letters or digits: a speck OCR read as "~" at the page's edge must not move the frame.
  const words = lines
    .filter((l) => l.page === page)
    .flatMap((l) => l.words)
    .filter((w) => /[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(w.word.text));
  const skew = ((page.image_transform.skew_degrees ?? 0) * Math.PI) / 180;
  const [W, H] = uprightSize(page);
  const [cx, cy] = [W / 2, H / 2];
  const base: Frame = {
    left: 0,
    top: 0,
    bottom: 1,
    width: 1,
    unit: 1,
    cx,
    cy,
    cos: Math.cos(-skew),
    sin: Math.sin(-skew),
  };
  if (!words.length) return base;
  const pts = words.map((w) => straight(base, w.box));
  const xs = pts.map((p) => p[0]).sort((a, b) => a - b),
    ys = pts.map((p) => p[1]).sort((a, b) => a - b);
  const rights = words.map((w) => straight(base, [w.box[2], w.box[1], w.box[2], w.box[3]])[0]).sort((a, b) => a - b);
  // The 2nd and 98th percentiles: a speck of dirt at the page edge must not move the frame.
  const lo = xs[Math.floor(xs.length * 0.02)]!,
    hi = rights[Math.min(rights.length - 1, Math.floor(rights.length * 0.98))]!;
  const unit =
    median(words.filter((w) => /\p{L}{2}/u.test(w.word.text)).map((w) => w.box[3] - w.box[1])) ||
    median(words.map((w) => w.box[3] - w.box[1])) ||
    1;
  const bottoms = words.map((w) => straight(base, [w.box[0], w.box[3], w.box[2], w.box[3]])[1]).sort((a, b) => a - b);
  return {
    ...base,
    left: lo,
    top: ys[0]!,
    bottom: bottoms[bottoms.length - 1]!,
    width: Math.max(1, hi - lo),
    unit: Math.max(1, unit),
  };
}

/** A box's top-left with the skew undone (rotation about the page centre). */
function straight(f: Frame, b: Box): [number, number] {
  const x = b[0] - f.cx,
    y = b[1] - f.cy;
  return [f.cx + x * f.cos - y * f.sin, f.cy + x * f.sin + y * f.cos];
}

/** A box's top-left in the frame: x as a share of the text width, y in word heights below the text's top. */
export function placeOf(f: Frame, b: Box): [number, number] {
  const [x, y] = straight(f, b);
  return [(x - f.left) / f.width, (y - f.top) / f.unit];
}

/** A box's top-left in word heights above the text's bottom (footers move with the length of the document). */
export function fromBottom(f: Frame, b: Box): number {
  return (f.bottom - straight(f, b)[1]) / f.unit;
}

/** From `from` to `to` in word heights (both boxes on one page). */
export function offsetOf(f: Frame, from: Box, to: Box): [number, number] {
  const [a, b] = [straight(f, from), straight(f, to)];
  return [(b[0] - a[0]) / f.unit, (b[1] - a[1]) / f.unit];
}

export const compactText = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

/** Similarity of two compact strings, 0..1, with OCR-weighted edits (1 = equal). */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const n = Math.max(a.length, b.length);
  if (!n) return 0;
  const max = Math.ceil(n * 0.34);
  const d = editDistance(a, b, max);
  return d > max ? 0 : 1 - d / n;
}

export interface Found {
  line: Line;
  words: LineWord[];
  score: number;
}

/**
 * Where `text` is printed, letters and digits compared, allowing OCR slips: runs of up to 12 words of a line whose
 * compact text is at least `min` alike (best first).
 */
export function findText(text: string, lines: Line[], min = 0.8): Found[] {
  const target = compactText(text);
  if (!target) return [];
  const out: Found[] = [];
  for (const line of lines) {
    let best: Found | null = null;
    for (let i = 0; i < line.words.length; i++) {
      let acc = "";
      for (let j = i; j < Math.min(line.words.length, i + 12); j++) {
        acc += compactText(line.words[j]!.word.text);
        if (acc.length > target.length * 1.4 + 2) break;
        if (acc.length < target.length * 0.7) continue;
        const s = similarity(acc, target);
        if (s >= min && (!best || s > best.score)) best = { line, words: line.words.slice(i, j + 1), score: s };
      }
    }
    if (best) out.push(best);
  }
  return out.sort((a, b) => b.score - a.score);
}
