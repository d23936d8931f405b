/**
 * A side of a photographed sheet that sheet.ts found no line for, bounded by the sides beside it: where the paper's
 * edge was lost on a busy table (wood grain, cloth: every scan meets the texture's edges first) or under a hard
 * shadow, the frame's border would stand in for it and the table beyond be read with the receipt (its texture read
 * as marks, its lines running across the paper's).
 */
import { maxOf, minOf } from "../arrays";

export type Point = [number, number];

/** The step a paper edge makes (log brightness), how far sides move in past its rim, and how much they may lean. */
export interface Edge {
  step: number;
  rim: number;
  maxLean: number;
}

export interface SideLine {
  a: number;
  b: number;
}
/** A side's line with the first and last row (column) of the steps on it: where the paper's edge was seen. */
export interface Side extends SideLine {
  from: number;
  to: number;
}

/** Sides beside a lost one that end this close (share of the frame) to its border run out of the frame. */
const OUT_OF_FRAME = 0.03;
/** How far (share of the frame) a lost side lies beyond where the sides beside it end: their ends blur and curl. */
const BOUND_MARGIN = 0.02;

export type Small = { data: Float32Array; width: number; height: number };

/**
 * The line of a side not found, through the ends of the sides beside it (`beside`: the left and right sides, each
 * x = a·y + b, when the lost side is a row's, or the top and bottom ones, each y = a·x + b), moved BOUND_MARGIN
 * outwards (`dir` -1: towards 0, 1: towards the frame's far border). Null (the frame's border stands in) unless both
 * sides beside it were found (one end alone may be a curl's or a shadow's), or when one runs out of the frame, or
 * when the paper's edge goes on past its end (paper in a deep shadow: a shadow darkens paper and table alike, the
 * log step across the edge stays where the scans lost it). Measured on receipts-hard/photo-real: 6 of 30 photos had
 * a side on the frame's border with the table read beside the receipt; bounding them cut none of the paper.
 */
export function boundSide(
  img: Small,
  beside: (Side | null)[],
  dir: -1 | 1,
  lost: "row" | "column",
  edge: Edge,
): SideLine | null {
  const span = lost === "row" ? img.height : img.width;
  const sides = beside.map((s, k) => (s ? { s, inward: k === 0 ? 1 : -1 } : null)).filter((x) => x !== null);
  const ends = sides.map(({ s }) => (dir === 1 ? s.to : s.from));
  if (sides.length < 2 || ends.some((e) => (dir === 1 ? span - 1 - e : e) <= OUT_OF_FRAME * span)) return null;
  if (sides.some(({ s, inward }, i) => edgeGoesOn(img, s, inward, ends[i]!, dir, lost, edge))) return null;
  const margin = Math.max(edge.rim + 1, BOUND_MARGIN * span);
  // Each end as [position across the lost side's line, index along it].
  const pts = sides.map(({ s }, i) => [ends[i]! + dir * margin, s.a * ends[i]! + s.b] as Point);
  const line = fit(pts);
  if (line && Math.abs(line.a) <= edge.maxLean) return line;
  // Ends too far apart for a side (one side beside it lost early): level through the farther end.
  const across = pts.map((p) => p[0]);
  return { a: 0, b: dir === 1 ? maxOf(across) : minOf(across) };
}

/** Points sampled along a side's line past its end, and the share with a step across it that means it goes on. */
const ON_SAMPLES = 12;
const GOES_ON = 0.5;

/** Whether side `s` (paper towards `inward` across it) still has paper beside it past `end`, towards `dir`. */
function edgeGoesOn(
  img: Small,
  s: Side,
  inward: number,
  end: number,
  dir: -1 | 1,
  lost: "row" | "column",
  edge: Edge,
): boolean {
  const span = lost === "row" ? img.height : img.width;
  const at = (pos: number, idx: number) => {
    const [x, y] = lost === "row" ? [Math.round(pos), Math.round(idx)] : [Math.round(idx), Math.round(pos)];
    return x < 0 || y < 0 || x >= img.width || y >= img.height ? null : img.data[y * img.width + x]!;
  };
  const stop = dir === 1 ? span - 1 : 0;
  let [on, total] = [0, 0];
  for (let k = 1; k <= ON_SAMPLES; k++) {
    const idx = end + ((stop - end) * k) / (ON_SAMPLES + 1);
    const pos = s.a * idx + s.b;
    const inside = at(pos + inward * 2, idx);
    const outside = at(pos - inward * (edge.rim + 3), idx);
    if (inside === null || outside === null) continue;
    total++;
    if (inside - outside >= edge.step * 0.3) on++;
  }
  return total > 0 && on >= GOES_ON * total;
}

/** The least-squares line position = a·index + b through `pts` ([position, index]). */
export function fit(pts: Point[]): SideLine | null {
  const n = pts.length;
  let [si, sp, sii, sip] = [0, 0, 0, 0];
  for (const [p, i] of pts) {
    si += i;
    sp += p;
    sii += i * i;
    sip += i * p;
  }
  const d = n * sii - si * si;
  if (n < 2 || Math.abs(d) < 1e-9) return null;
  const a = (n * sip - si * sp) / d;
  return { a, b: (sp - a * si) / n };
}
