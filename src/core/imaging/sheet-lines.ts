/**
 * The lines of a crumpled or curled sheet straightened (after sheet-warp.ts squared it up). A receipt that does not
 * lie flat bows its lines by a good part of a line's height across the paper: read as one block of lines, the
 * amounts flush right then land on the row above or below their labels ("TAX 132.66", the total beside CASH).
 *
 * The sheet is cut into bands a few lines tall; in each, the columns are shifted along the lines' normal by a smooth
 * curve (a tilt and a bow across the width) chosen to make the band's ink profile sharpest (ink of one line falling
 * in the same rows). Among curves nearly as sharp as the best, the smallest wins: a label and an amount one line
 * apart align as sharply as a label and its own amount, and a sheet bowed by more than half a line is rarer than one
 * bowed by less. The shifts are interpolated between band centres; a sheet whose profile the shifts do not sharpen
 * clearly is left as it was.
 */
import type { Box } from "../model.ts";
import type { GreyImage } from "./grey.ts";
import type { SquaredSheet } from "./sheet-warp.ts";

/** Ink: darker than this once the light is even (paper near 255). */
const INK = 150;
/** Columns are grouped into about this many groups for the profiles (at least MIN_GROUP wide). */
const GROUPS = 48;
const MIN_GROUP = 4;
/** Largest shift (pixels) at the sheet's sides, and this share of its width at most. */
const MAX_SHIFT = 20;
const MAX_SHIFT_SHARE = 0.05;
/** Curves within this share of the sharpest count as nearly as sharp. */
const NEAR_BEST = 0.97;
/** The whole sheet's profile must grow sharper by this factor for the shifts to be kept. */
const GAIN = 1.04;

type Axis = "across" | "down";

/** `sheet` with its lines straightened when that sharpens them; `axis` is the lines' direction (null: unknown). */
export function straightenLines(sheet: SquaredSheet, axis: Axis | null): SquaredSheet {
  const tries = (axis ? [axis] : (["across", "down"] as Axis[])).map((a) => {
    const img = a === "across" ? sheet.image : transpose(sheet.image);
    return { a, img, fit: fitShifts(img) };
  });
  const best = tries.reduce<(typeof tries)[number] | null>(
    (b, t) => (t.fit && (!b?.fit || t.fit.gain > b.fit.gain) ? t : b),
    null,
  );
  if (!best?.fit) return sheet;
  const { shift } = best.fit;
  const moved = resample(best.img, shift);
  const image = best.a === "across" ? moved : transpose(moved);
  const toSource = (b: Box): Box => {
    // Back through the shifts: a box's rows move by the shifts met along its columns.
    const [x1, y1, x2, y2] = best.a === "across" ? b : [b[1], b[0], b[3], b[2]];
    let [lo, hi] = [Infinity, -Infinity];
    for (const x of [x1, (x1 + x2) / 2, x2])
      for (const y of [y1, y2]) {
        const s = shift(Math.min(best.img.width - 1, Math.max(0, x)), y);
        lo = Math.min(lo, y + s);
        hi = Math.max(hi, y + s);
      }
    const back: Box = best.a === "across" ? [x1, lo, x2, hi] : [lo, x1, hi, x2];
    return sheet.toSource(back);
  };
  return { image, toSource };
}

interface Fit {
  gain: number;
  /** Shift (pixels, along the columns) at column x, row y. */
  shift: (x: number, y: number) => number;
}

/** Per band, the curve of shifts that makes its lines sharpest; null when it does not sharpen the sheet. */
function fitShifts(img: GreyImage): Fit | null {
  const { width, height } = img;
  const group = Math.max(MIN_GROUP, Math.round(width / GROUPS));
  const groups = Math.floor(width / group);
  if (groups < 8 || height < 40) return null;
  const limit = Math.max(2, Math.min(MAX_SHIFT, Math.round(width * MAX_SHIFT_SHARE)));
  const bandCount = Math.max(1, Math.round(height / (0.35 * width)));
  const bandHeight = height / bandCount;
  const ink = groupInk(img, groups, group);
  const curves: Array<[number, number]> = [];
  let [before, after] = [0, 0];
  for (let b = 0; b < bandCount; b++) {
    const [y0, y1] = [Math.round(b * bandHeight), Math.round((b + 1) * bandHeight)];
    const score = (tilt: number, bow: number) =>
      sharpness(ink, groups, group, width, y0, y1, (t) => curve(t, tilt, bow));
    const flat = score(0, 0);
    let found = { tilt: 0, bow: 0, s: flat };
    const seen: Array<{ tilt: number; bow: number; s: number }> = [];
    for (let tilt = -limit; tilt <= limit; tilt += 2)
      for (let bow = -limit; bow <= limit; bow += 2) {
        const s = score(tilt, bow);
        seen.push({ tilt, bow, s });
        if (s > found.s) found = { tilt, bow, s };
      }
    const near = seen.filter((c) => c.s >= found.s * NEAR_BEST);
    const small = near.reduce((a, c) => (size(c) < size(a) ? c : a), found);
    curves.push([small.tilt, small.bow]);
    before += flat;
    after += small.s;
  }
  if (after < before * GAIN) return null;
  const shift = (x: number, y: number) => {
    const t = (2 * x) / width - 1;
    const f = Math.min(bandCount - 1, Math.max(0, y / bandHeight - 0.5));
    const [b0, k] = [Math.floor(f), f - Math.floor(f)];
    const b1 = Math.min(bandCount - 1, b0 + 1);
    const [c0, c1] = [curves[b0]!, curves[b1]!];
    return curve(t, c0[0], c0[1]) * (1 - k) + curve(t, c1[0], c1[1]) * k;
  };
  return { gain: after / Math.max(1, before), shift };
}

/** A tilt and a bow across the width (t from -1 to 1): shift 0 in the middle, tilt ± bow at the sides. */
const curve = (t: number, tilt: number, bow: number) => tilt * t + bow * (t * t - 1 / 3);
const size = (c: { tilt: number; bow: number }) => Math.abs(c.tilt) + Math.abs(c.bow);

/** Ink pixels per row in each group of `group` columns: rows × groups. */
function groupInk(img: GreyImage, groups: number, group: number): Uint16Array {
  const { width, height, data } = img;
  const out = new Uint16Array(height * groups);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < groups * group && x < width; x++)
      if (data[y * width + x]! < INK) out[y * groups + Math.floor(x / group)]!++;
  return out;
}

/** Sum of squares of the band's row profile with each group's rows shifted by `at(t)`. */
function sharpness(
  ink: Uint16Array,
  groups: number,
  group: number,
  width: number,
  y0: number,
  y1: number,
  at: (t: number) => number,
): number {
  const rows = ink.length / groups;
  const profile = new Float64Array(y1 - y0);
  for (let g = 0; g < groups; g++) {
    const s = Math.round(at((2 * (g + 0.5) * group) / width - 1));
    for (let y = y0; y < y1; y++) {
      const from = y + s;
      if (from >= 0 && from < rows) profile[y - y0]! += ink[from * groups + g]!;
    }
  }
  let sum = 0;
  for (const p of profile) sum += p * p;
  return sum;
}

/** Each column's pixels taken from `shift` rows further along it (linear between rows). */
function resample(img: GreyImage, shift: (x: number, y: number) => number): GreyImage {
  const { width, height, data } = img;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = Math.min(height - 1, Math.max(0, y + shift(x, y)));
      const v0 = Math.min(height - 2, Math.floor(v));
      const f = Math.max(0, Math.min(1, v - v0));
      out[y * width + x] = Math.round(data[v0 * width + x]! * (1 - f) + data[(v0 + 1) * width + x]! * f);
    }
  return { data: out, width, height };
}

function transpose(img: GreyImage): GreyImage {
  const { width, height, data } = img;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[x * height + y] = data[y * width + x]!;
  return { data: out, width: height, height: width };
}
