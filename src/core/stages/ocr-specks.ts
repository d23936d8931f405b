/**
 * Specks on a till roll read as one block of lines (psm 6, see psmFor in ocr.ts): in that mode tesseract gives every
 * blob a reading, so the grain of a scan or the dots of worn thermal paper come back as ":", ";", "©" or a doubtful
 * "SE" between the words. They push a merchant's name off its line ("STATION GROCERY es"), make an item line look
 * like the largest type, and sit between a label and its amount. Taken out here: dots far smaller than the
 * lettering, marks without a letter or digit that tesseract doubts, and short doubtful letter-only readings.
 */
import type { Word } from "../model.ts";
import type { OcrResult } from "../engines/ocr/types.ts";
import { meanConfidence, textOfWords } from "../engines/ocr/tsv.ts";

/** A box smaller than this share of the median word height both ways is a dot, not a letter. */
const DOT = 0.35;
/** Marks without a letter or digit below this confidence are specks. */
const DOUBTFUL_MARK = 0.5;
/** Letter-only readings of up to MAX_GUESS characters below this confidence are guesses at grain. */
const DOUBTFUL_GUESS = 0.25;
const MAX_GUESS = 3;

export function dropSpecks(result: OcrResult): OcrResult {
  const heights = result.words.map((w) => w.bounding_box[3] - w.bounding_box[1]).sort((a, b) => a - b);
  if (heights.length < 5) return result;
  const h = heights[heights.length >> 1]!;
  const words = result.words.filter((w) => !speck(w, h));
  if (words.length === result.words.length) return result;
  return { ...result, words, text: textOfWords(words), confidence: meanConfidence(words) };
}

function speck(w: Word, h: number): boolean {
  const [x1, y1, x2, y2] = w.bounding_box;
  if (x2 - x1 < h * DOT && y2 - y1 < h * DOT) return true;
  const alnum = /[\p{L}\p{N}]/u.test(w.text);
  if (!alnum) return w.confidence < DOUBTFUL_MARK;
  return w.confidence < DOUBTFUL_GUESS && !/\d/.test(w.text) && [...w.text].length <= MAX_GUESS;
}
