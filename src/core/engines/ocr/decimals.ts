/**
 * Decimal points tesseract drops. A faint or small point between the units and the cents (thermal and dot-matrix
 * print, low-resolution scans) is often read as a space ("127 35") or as a word of its own ("127 . 35"), and the
 * amount then reads as 127 or 35. The image still shows the point: a dot of ink low in the gap between the two
 * numbers with nothing above it. Where the image has it, the words are joined into one ("127.35"); where the gap is
 * blank (a real space, a table column) nothing changes.
 */
import type { Word } from "../../model.ts";
import { type GreyImage } from "../../imaging/grey.ts";
import { meanConfidence, textOfWords } from "./tsv.ts";
import type { OcrResult } from "./types.ts";

/** A number ending in a digit (a currency sign or code may stand before it: "RM127"). */
const UNITS = /\d$/;
/** The cents: exactly two digits (a thousands group would have three). */
const CENTS = /^\d{2}$/;
const POINT = /^[.,·]$/;

export function keepDecimalPoints(image: GreyImage, result: OcrResult): OcrResult {
  const words = result.words;
  const out: Word[] = [];
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    const next = words[i + 1];
    const after = words[i + 2];
    if (
      next &&
      after &&
      next.line === a.line &&
      after.line === a.line &&
      UNITS.test(a.text) &&
      POINT.test(next.text) &&
      CENTS.test(after.text) &&
      near(a, after)
    ) {
      out.push(join(a, next.text === "," ? "," : ".", after));
      i += 2;
      changed = true;
    } else if (
      next &&
      next.line === a.line &&
      UNITS.test(a.text) &&
      CENTS.test(next.text) &&
      near(a, next) &&
      pointBetween(image, a, next)
    ) {
      out.push(join(a, ".", next));
      i += 1;
      changed = true;
    } else out.push(a);
  }
  return changed ? { ...result, words: out, text: textOfWords(out), confidence: meanConfidence(out) } : result;
}

const height = (w: Word) => w.bounding_box[3] - w.bounding_box[1];

/** On one baseline and at most about two character widths apart: one number, not two table cells. */
function near(a: Word, b: Word): boolean {
  const h = Math.max(height(a), height(b));
  const gap = b.bounding_box[0] - a.bounding_box[2];
  const baseline = Math.abs(a.bounding_box[3] - b.bounding_box[3]);
  return h > 0 && gap >= 0 && gap <= 1.3 * h && baseline <= 0.35 * h;
}

function join(a: Word, point: string, b: Word): Word {
  const [x1, y1] = a.bounding_box;
  const box: Word["bounding_box"] = [
    x1,
    Math.min(y1, b.bounding_box[1]),
    b.bounding_box[2],
    Math.max(a.bounding_box[3], b.bounding_box[3]),
  ];
  return {
    text: `${a.text}${point}${b.text}`,
    confidence: Math.min(a.confidence, b.confidence),
    bounding_box: box,
    ...(a.line !== undefined ? { line: a.line } : {}),
  };
}

/**
 * Ink in the bottom third of the gap between the numbers, none in its top half: a point. The ink level is the
 * middle between the darkest and the lightest pixel of the digits' own box, so faded print counts as ink too.
 */
function pointBetween(image: GreyImage, a: Word, b: Word): boolean {
  const [ax1, ay1, ax2, ay2] = a.bounding_box;
  const h = Math.max(height(a), height(b));
  const top = Math.max(0, Math.min(ay1, b.bounding_box[1]));
  const bottom = Math.min(image.height, Math.max(ay2, b.bounding_box[3]));
  const x1 = Math.max(0, ax2 + 1);
  const x2 = Math.min(image.width, b.bounding_box[0] - 1);
  if (x2 - x1 < 1 || bottom - top < 6) return false;
  let dark = 255;
  let light = 0;
  for (let y = Math.max(0, ay1); y < Math.min(image.height, ay2); y++) {
    for (let x = Math.max(0, ax1); x < Math.min(image.width, ax2); x++) {
      const v = image.data[y * image.width + x]!;
      if (v < dark) dark = v;
      if (v > light) light = v;
    }
  }
  if (light - dark < 40) return false;
  const level = (dark + light) / 2;
  const count = (yFrom: number, yTo: number) => {
    let n = 0;
    for (let y = Math.max(0, Math.floor(yFrom)); y < Math.min(image.height, Math.ceil(yTo)); y++) {
      for (let x = x1; x < x2; x++) if (image.data[y * image.width + x]! < level) n++;
    }
    return n;
  };
  const low = count(bottom - h / 3, bottom + 1);
  const high = count(top, top + h / 2);
  // A point of print covers at least a few pixels (about a tenth of the line height across).
  const minDot = Math.max(2, Math.round((0.1 * h) ** 2 * 0.5));
  return low >= minDot && high <= Math.max(1, minDot / 4);
}
