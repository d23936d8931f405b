/**
 * Each side of a photographed sheet fitted again on the steps that lie between the sides beside it. A hard shadow
 * across the table makes a step the scans from the frame's border meet before the paper's edge wherever the table
 * beyond the paper is in the shade: its steps lie on one straight line that runs on past the paper's corners, and
 * the first fit (sheet.ts sideLine) can take that line for the side (the table beyond then read with the receipt).
 * The paper's own edge ends where the sides beside it are: among the steps between them, the line most of them lie
 * on is the paper's edge (a consensus of lines through pairs of steps, not a least-squares fit pulled by the
 * shadow's steps). A side the first fit lost (a crumpled edge with a kink, a shadow's steps past a corner pulling
 * the fit away) is found the same way.
 */
import { maxOf, minOf } from "../arrays";
import { fit, type Point, type Side } from "./sheet-bound.ts";

export type Sides = { left: Side | null; right: Side | null; top: Side | null; bottom: Side | null };
export type Steps = { left: Point[]; right: Point[]; top: Point[]; bottom: Point[] };

export interface RefitRules {
  /** Steps this far (analysis pixels) from a line are on it. */
  near: number;
  /** A line needs steps on this share of the rows (columns) it spans. */
  support: number;
  maxLean: number;
}

/** Lines through pairs of steps tried per side. */
const CANDIDATES = 48;
/** Steps this far (analysis pixels) inside the sides beside a side are between them. */
const INSIDE = 2;
/** A refitted line replaces the first one when this many times as many of the steps between lie on it. */
const MORE = 1.25;
/** …and when the two lines lie this far apart (analysis pixels) somewhere along the side: else nothing changes. */
const APART = 2.5;

/** `sides` with each side refitted on the steps between the sides beside it (see the module comment). */
export function refitSides(sides: Sides, steps: Steps, size: { width: number; height: number }, rules: RefitRules) {
  const out: Sides = { ...sides };
  const pairs: Array<[keyof Sides, [keyof Sides, keyof Sides], number]> = [
    ["left", ["top", "bottom"], size.height],
    ["right", ["top", "bottom"], size.height],
    ["top", ["left", "right"], size.width],
    ["bottom", ["left", "right"], size.width],
  ];
  for (const [name, [lo, hi], span] of pairs) {
    const [a, b] = [sides[lo], sides[hi]];
    if (!a || !b) continue;
    // A step [position, index] is between the sides beside it when its index lies between theirs at its position.
    const between = steps[name].filter(([p, i]) => i >= a.a * p + a.b + INSIDE && i <= b.a * p + b.b - INSIDE);
    const line = consensus(between, span, rules);
    if (!line) continue;
    const first = sides[name];
    if (!first) {
      out[name] = line;
      continue;
    }
    const on = (l: Side) => between.filter(([p, i]) => Math.abs(p - (l.a * i + l.b)) <= rules.near).length;
    const gap = (i: number) => Math.abs(line.a * i + line.b - (first.a * i + first.b));
    const apart = Math.max(gap(line.from), gap(line.to));
    if (apart > APART && on(line) >= MORE * on(first)) out[name] = line;
  }
  return out;
}

/**
 * The line (position = a·index + b) most of `steps` lie on: lines through pairs of steps half (and a quarter of) the
 * steps apart in index order, the one with the most steps near it refitted on them twice. Null when too few steps
 * support it (as sideLine asks) or it leans too much.
 */
function consensus(steps: Point[], span: number, rules: RefitRules): Side | null {
  const n = steps.length;
  if (n < Math.max(8, span * 0.1)) return null;
  const sorted = [...steps].sort((x, y) => x[1] - y[1]);
  const near = (a: number, b: number) => sorted.filter(([p, i]) => Math.abs(p - (a * i + b)) <= rules.near);
  let best: Point[] = [];
  for (let k = 0; k < CANDIDATES; k++) {
    const i = Math.floor((k * n) / CANDIDATES);
    const j = (i + Math.floor(n / (k % 2 ? 4 : 2))) % n;
    const [[p1, i1], [p2, i2]] = [sorted[i]!, sorted[j]!];
    if (i1 === i2) continue;
    const a = (p2 - p1) / (i2 - i1);
    if (Math.abs(a) > rules.maxLean) continue;
    const on = near(a, p1 - a * i1);
    if (on.length > best.length) best = on;
  }
  let line = best.length >= 2 ? fit(best) : null;
  for (let round = 0; round < 2 && line; round++) {
    best = near(line.a, line.b);
    line = best.length >= 2 ? fit(best) : null;
  }
  if (!line || Math.abs(line.a) > rules.maxLean) return null;
  const indexes = best.map(([, i]) => i);
  const extent = maxOf(indexes) - minOf(indexes) + 1;
  return best.length >= rules.support * extent && extent >= span * 0.2 && best.length >= Math.max(8, span * 0.1)
    ? { ...line, from: minOf(indexes), to: maxOf(indexes) }
    : null;
}
