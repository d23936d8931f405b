/**
 * The orientation search of the OCR stage (stages/ocr/index.ts reads each page through it): the page is read at the most
 * likely quarter turn first, and only a weak reading makes it try a smoothed pass and the other turns.
 */
import type { Box } from "../../model.ts";
import type { PageLayout } from "../../engines/ocr/layout.ts";
import { textLikeness } from "../../engines/ocr/text-likeness.ts";
import { crop, smooth, type GreyImage } from "../../imaging/grey.ts";
import { renderUpright, uprightTransform, type UprightTransform } from "../../imaging/upright.ts";
import type { OcrEngine, OcrResult } from "../../engines/ocr/types.ts";
import { timeStage } from "../../timing.ts";
import { maxOf } from "../../arrays";

/** Likeness from which a reading is accepted without trying other orientations (upright pages measured ≥ 0.74). */
const STRONG = 0.55;
/** A challenger orientation must beat the first guess by this much: a wrong turn would ruin the page. */
const SWITCH_MARGIN = 0.1;
/** Side of the window (source pixels) read at each candidate orientation when the first reading is weak. */
const PROBE_SIZE = 1200;

export interface Reading {
  transform: UprightTransform;
  result: OcrResult;
  likeness: number;
  /** The upright image that was read (the reading's pixel space). */
  image: GreyImage;
}

export function blankReading(grey: GreyImage): Reading {
  return {
    transform: uprightTransform(grey.width, grey.height, 0, 0),
    result: { words: [], text: "", confidence: null },
    likeness: 0,
    image: grey,
  };
}

/**
 * Reads the page at the most likely orientation first (the line axis from the layout analysis); only a weak reading
 * triggers probes at the other quarter turns, so an upright page costs exactly one recognition.
 */
export async function readUpright(
  grey: GreyImage,
  layout: PageLayout,
  engine: OcrEngine,
  dpi?: number,
  psm?: number,
): Promise<Reading> {
  const order = layout.lineAxis === "down" ? [90, 270, 0, 180] : [0, 180, 90, 270];
  const full = new Map<number, Promise<Reading>>();
  const readFull = (rotation: number) => {
    if (!full.has(rotation))
      full.set(
        rotation,
        readAt(grey, uprightTransform(grey.width, grey.height, rotation, layout.skew), engine, dpi, psm),
      );
    return full.get(rotation)!;
  };
  const first = await timeStage("ocr: recognition", () => readFull(order[0]));
  if (first.likeness >= STRONG) return first;
  // A weak first reading of visible ink: the same turn again with the image averaged over about a dot pitch, so
  // dot-matrix and worn thermal print read as strokes. Kept when it reads clearly more; strong, it ends the search.
  const closed = await timeStage("ocr: second pass", () =>
    readAt(smooth(grey, dotRadius(layout)), first.transform, engine, dpi, psm),
  );
  const pass = goodChars(closed) > goodChars(first) * 1.2 + 5 ? closed : null;
  if (pass && pass.likeness >= STRONG) return pass;
  // Still weak: orientation probes, and the winning turn read in full when it is not the first guess.
  const turned = await timeStage("ocr: orientation probes", async () =>
    readFull(await pickRotation(grey, layout.inkBox!, order, engine, dpi, readFull)),
  );
  return pass && turned.transform.rotation === first.transform.rotation && goodChars(pass) > goodChars(turned)
    ? pass
    : turned;
}

/** Characters read as plausible words, weighted by confidence: what a reading is worth. */
export function goodChars(r: Reading): number {
  let total = 0;
  for (const w of r.result.words) total += [...w.text].length;
  return r.likeness * total;
}

/**
 * Radius of the second pass's averaging: about a dot pitch. Impact printers put 7–10 dots in a line of text, so the
 * pitch follows the line height (~30 px lines at 300 DPI, 3 px pitch: radius 2); 2 when the height is unknown.
 */
function dotRadius(layout: PageLayout): number {
  return layout.lineHeight ? Math.max(1, Math.min(4, Math.round(layout.lineHeight / 14))) : 2;
}

async function readAt(
  grey: GreyImage,
  transform: UprightTransform,
  engine: OcrEngine,
  dpi?: number,
  psm?: number,
): Promise<Reading> {
  const upright = renderUpright(grey, transform);
  const result = await engine.recognize({ ...upright, channels: 1 }, psm ? { dpi, psm } : { dpi });
  return { transform, result, likeness: textLikeness(result.words), image: upright };
}

/**
 * Scores candidate quarter turns on a window of the ink (the whole page when the ink fits in it, reusing those
 * readings). Tries the first guess's pair (0/180 or 90/270) first and the other pair only if neither is strong.
 */
async function pickRotation(
  grey: GreyImage,
  inkBox: Box,
  order: number[],
  engine: OcrEngine,
  dpi: number | undefined,
  readFull: (rotation: number) => Promise<Reading>,
): Promise<number> {
  const [x1, y1, x2, y2] = inkBox;
  const fits = x2 - x1 <= PROBE_SIZE && y2 - y1 <= PROBE_SIZE;
  const window = fits ? null : probeWindow(grey, inkBox);
  const score = async (rotation: number): Promise<Score> => {
    const r = window
      ? await readAt(window, uprightTransform(window.width, window.height, rotation, 0), engine, dpi)
      : await readFull(rotation);
    return { likeness: r.likeness, good: goodChars(r) };
  };
  const scores = new Map<number, Score>();
  const best = () => maxOf([...scores.values()].map((s) => s.likeness));
  for (const r of order.slice(0, 2)) scores.set(r, await score(r));
  // A window that reads neither turn of the line axis strongly decides nothing: it can miss the text (pale print, a
  // table's rules in the middle of the page) or cut a sideways receipt's lines mid-word, so both turns read as
  // fragments alike (a sideways photo read upside down: 0.16 against 0.19 in the window, 0.14 against 0.45 in
  // full). Whole-page readings decide instead, in the same order, until one is strong; the window's other pair is
  // not read, so a weak page costs at most one recognition more than the four window probes and the winner's.
  if (window && best() < STRONG) {
    scores.clear();
    for (const r of order) {
      const full = await readFull(r);
      scores.set(r, { likeness: full.likeness, good: goodChars(full) });
      if (full.likeness >= STRONG) break;
    }
  } else if (best() < STRONG) {
    for (const r of order.slice(2)) scores.set(r, await score(r));
  }
  // Among challengers that clear the margin over the first guess, or read several times its text, the highest wins.
  const first = scores.get(order[0])!;
  const challengers = [...scores].filter(
    ([r, s]) => r !== order[0] && (s.likeness >= first.likeness + SWITCH_MARGIN || readsMore(s, first)),
  );
  return challengers.length === 0 ? order[0] : challengers.reduce((a, b) => (b[1].likeness > a[1].likeness ? b : a))[0];
}

interface Score {
  likeness: number;
  /** goodChars of the reading. */
  good: number;
}

/** A reading with this many times another's good characters reads text the other does not. */
export const MORE_TEXT = 2;
/** ... and at least this many of them: a few words either way decide nothing. */
const MIN_GOOD = 30;

/**
 * Whether `s` reads clearly more text than `first` where neither is strong. Small faint print read at the wrong
 * scale (a sideways receipt photo whose layout took its columns of characters for lines) reads as fragments at every
 * turn, so the likeness of the right turn clears the first guess's by less than the margin (0.24 against 0.20), yet
 * it reads three to five times the plausible words (85 good characters against 27).
 */
function readsMore(s: Score, first: Score): boolean {
  return s.likeness < STRONG && s.likeness > first.likeness && s.good >= MIN_GOOD && s.good >= MORE_TEXT * first.good;
}

/** The central PROBE_SIZE² window of the ink box. */
function probeWindow(grey: GreyImage, [x1, y1, x2, y2]: Box): GreyImage {
  const w = Math.min(PROBE_SIZE, x2 - x1, grey.width);
  const h = Math.min(PROBE_SIZE, y2 - y1, grey.height);
  const x = Math.max(0, Math.min(grey.width - w, Math.round((x1 + x2 - w) / 2)));
  const y = Math.max(0, Math.min(grey.height - h, Math.round((y1 + y2 - h) / 2)));
  return crop(grey, x, y, w, h);
}
