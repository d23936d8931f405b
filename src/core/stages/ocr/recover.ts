/**
 * Second look at a page tesseract has read: text lines its page layout left out (see engines/ocr/recover.ts) are
 * read one by one as single lines and put into the reading, into their row or in reading order. It can only add:
 * a line that fails to read is left out and the first reading stands.
 */
import { crop, type GreyImage } from "../../imaging/grey.ts";
import { medianWordHeight, unreadLines } from "../../engines/ocr/recover.ts";
import { meanConfidence, renumberLines, textOfWords } from "../../engines/ocr/tsv.ts";
import type { OcrEngine, OcrResult } from "../../engines/ocr/types.ts";
import { shareInside, unionBox } from "../../geometry.ts";
import type { Box, Word } from "../../model.ts";

/** Tesseract's page segmentation mode for "a single text line". */
const SINGLE_LINE = 7;
/** A line read on its own is kept only this sure of itself: a blob row may be a signature or a logo. */
const MIN_LINE_CONFIDENCE = 0.7;
/** First-pass words below this are guesses at the same ink (a border read as "A") and give way to the new line. */
const GUESS = 0.3;

export async function addUnreadLines(
  image: GreyImage,
  result: OcrResult,
  engine: OcrEngine,
  dpi?: number,
  textHeight?: number | null,
  fallback?: OcrEngine,
  apart = false,
): Promise<OcrResult> {
  const boxes = unreadLines(image, result.words, textHeight);
  if (boxes.length === 0) return result;
  let words = result.words;
  let added = 0;
  const reads = await readLines(image, boxes, engine, dpi);
  // A page read again in its own language: a line that model reads badly (a price column of a phone photo) gets the
  // first model's reading too.
  const failed = fallback ? boxes.filter((_, i) => !reads[i] || !plausible(reads[i]!)) : [];
  if (failed.length) {
    const again = await readLines(image, failed, fallback!, dpi);
    for (const [k, box] of failed.entries()) reads[boxes.indexOf(box)] = again[k] ?? reads[boxes.indexOf(box)]!;
  }
  for (const [i, box] of boxes.entries()) {
    const [x1, y1] = box;
    const read = reads[i];
    if (!read || !plausible(read)) continue;
    const id = -++added; // below tesseract's line numbers until renumbered
    const line = read.words.map((w) => ({
      ...w,
      bounding_box: [
        w.bounding_box[0] + x1,
        w.bounding_box[1] + y1,
        w.bounding_box[2] + x1,
        w.bounding_box[3] + y1,
      ] as Box,
      line: id,
    }));
    words = insertLine(
      words.filter((w) => w.confidence >= GUESS || shareInside(w.bounding_box, box) < 0.3),
      line,
      apart,
    );
  }
  if (added === 0) return result;
  const renumbered = renumberLines(words);
  return { words: renumbered, text: textOfWords(renumbered), confidence: meanConfidence(renumbered) };
}

/** Type this many times the height of a page's lines is looked for by `addLargeLines`. */
const LARGE_TYPE = 2;

/**
 * Second look for lines in type much larger than the page's own (a till roll's logo: the merchant's name in big
 * bold or letter-spaced capitals). Read as one block of lines (psm 6), tesseract drops a line far taller than the
 * rest, and the first second look only seeks blobs of text height. Adds only, as addUnreadLines.
 */
export async function addLargeLines(
  image: GreyImage,
  result: OcrResult,
  engine: OcrEngine,
  dpi?: number,
): Promise<OcrResult> {
  const height = medianWordHeight(result.words);
  // A logo's line joins no row of smaller type: on a crumpled or curled roll it dips into the address line below
  // it, and joined to that row its words interleaved with the street's ("BOULANGERIE 47 BD VOLTAIRE MARTIN").
  return height ? addUnreadLines(image, result, engine, dpi, height * LARGE_TYPE, undefined, true) : result;
}

/** Every line box read as a single line: in one engine call when the engine can (see OcrEngine.recognizeMany). */
async function readLines(
  image: GreyImage,
  boxes: Box[],
  engine: OcrEngine,
  dpi?: number,
): Promise<Array<OcrResult | null>> {
  const crops = boxes.map(([x1, y1, x2, y2]) => ({ ...crop(image, x1, y1, x2 - x1, y2 - y1), channels: 1 as const }));
  const opts = { psm: SINGLE_LINE, dpi };
  if (engine.recognizeMany) return engine.recognizeMany(crops, opts);
  const reads: Array<OcrResult | null> = [];
  for (const img of crops) reads.push(await engine.recognize(img, opts).catch(() => null));
  return reads;
}

/** Confident overall, with at least one confidently read word of three letters or digits. */
function plausible(read: OcrResult): boolean {
  if ((read.confidence ?? 0) < MIN_LINE_CONFIDENCE) return false;
  return read.words.some((w) => w.confidence >= MIN_LINE_CONFIDENCE && /[\p{L}\p{N}]{3}/u.test(w.text));
}

/** A row is in a line's type when its words are at least this share of the line's words' height. */
const ALIKE = 0.6;

/** The median height of `words` (a mark read as a tall "|" beside a street's words does not make it a logo's row). */
function typeHeight(words: Word[]): number {
  const h = words.map((w) => w.bounding_box[3] - w.bounding_box[1]).sort((a, b) => a - b);
  return h.length ? h[Math.floor(h.length / 2)]! : 0;
}

/**
 * Into the line of the same row when one is next to it (a table header cell tesseract skipped joins its row, in
 * x order; with `apart`, only a row in type as large: the rest of a logo read in part); otherwise as a line of its
 * own, before the first line (in reading order) that starts below its middle.
 */
function insertLine(words: Word[], line: Word[], apart = false): Word[] {
  const [left, top, right, bottom] = unionBox(line.map((w) => w.bounding_box));
  const extents = new Map<number | undefined, Box>();
  for (const w of words) extents.set(w.line, unionBox([extents.get(w.line) ?? w.bounding_box, w.bounding_box]));
  const height = bottom - top;
  const row = [...extents].find(([rowLine, e]) => {
    const shared = Math.min(e[3], bottom) - Math.max(e[1], top);
    const gap = Math.max(e[0] - right, left - e[2], 0);
    const alike = !apart || typeHeight(words.filter((w) => w.line === rowLine)) >= ALIKE * typeHeight(line);
    return alike && shared >= 0.5 * Math.min(height, e[3] - e[1]) && gap <= 2 * height;
  });
  if (row) {
    const first = words.findIndex((w) => w.line === row[0]);
    let last = first;
    while (last + 1 < words.length && words[last + 1]!.line === row[0]) last++;
    const merged = [...words.slice(first, last + 1), ...line.map((w) => ({ ...w, line: row[0] }))].sort(
      (a, b) => a.bounding_box[0] - b.bounding_box[0],
    );
    return [...words.slice(0, first), ...merged, ...words.slice(last + 1)];
  }
  const middle = (top + bottom) / 2;
  const at = words.findIndex((w) => extents.get(w.line)![1] > middle);
  return at < 0 ? [...words, ...line] : [...words.slice(0, at), ...line, ...words.slice(at)];
}
