/**
 * Reading order for a page's words: words are grouped into lines by vertical overlap, lines run top to bottom,
 * words in a line left to right. The same rule serves text layers and supplied OCR data, so `line` and `text` mean
 * the same thing whatever the text source.
 */
import type { Word } from "./model.ts";

/**
 * Sorts `words` into reading order in place, sets `line` (1-based) on each and returns the page text
 * (words joined by one space, lines by "\n").
 */
export function orderWordsIntoLines(words: Word[]): string {
  if (words.length === 0) return "";
  // Text layers and OCR output usually come top to bottom already: a stable sort of a sorted list is the list.
  const byTop = isSorted(words, centerY) ? [...words] : sortedBy(words, centerY);
  const lines: Word[][] = [];
  let current: Word[] = [];
  let bandTop = 0,
    bandBottom = 0;
  for (const word of byTop) {
    const [, y1, , y2] = word.bounding_box;
    const center = (y1 + y2) / 2;
    // A word joins the current line when its vertical center lies inside the line's band.
    if (current.length > 0 && center >= bandTop && center <= bandBottom) {
      current.push(word);
      bandTop = Math.min(bandTop, y1 + (y2 - y1) * 0.25);
      bandBottom = Math.max(bandBottom, y2 - (y2 - y1) * 0.25);
      continue;
    }
    if (current.length > 0) lines.push(current);
    current = [word];
    bandTop = y1 + (y2 - y1) * 0.25;
    bandBottom = y2 - (y2 - y1) * 0.25;
  }
  lines.push(current);
  let index = 0;
  const texts: string[] = [];
  lines.forEach((line, lineIndex) => {
    if (!isSorted(line, left)) line.sort((p, q) => left(p) - left(q));
    for (const word of line) {
      word.line = lineIndex + 1;
      words[index++] = word;
    }
    texts.push(line.map((w) => w.text).join(" "));
  });
  return texts.join("\n");
}

/**
 * `[...words].sort((p, q) => key(p) - key(q))`, with each key computed once: the sort compares indices by their
 * precomputed keys, so it sees the same comparisons in the same order and, being stable, gives the same list. (Run for
 * every born-digital page in the pdf.js thread: the comparator read four box members per comparison.)
 */
function sortedBy(words: Word[], key: (w: Word) => number): Word[] {
  const keys = new Float64Array(words.length);
  const order = new Array<number>(words.length);
  for (let i = 0; i < words.length; i++) {
    keys[i] = key(words[i]!);
    order[i] = i;
  }
  order.sort((i, j) => keys[i]! - keys[j]!);
  return order.map((i) => words[i]!);
}

function centerY(word: Word): number {
  return (word.bounding_box[1] + word.bounding_box[3]) / 2;
}

function left(word: Word): number {
  return word.bounding_box[0];
}

/** True when `key` never decreases along `words` (the comparator sorts would use finds no pair out of order). */
function isSorted(words: Word[], key: (w: Word) => number): boolean {
  for (let i = 1; i < words.length; i++) {
    if (!(key(words[i - 1]!) - key(words[i]!) <= 0)) return false;
  }
  return true;
}

/** Mean word confidence, null without words (the Page.ocr_confidence rule). */
export function meanConfidence(words: Word[]): number | null {
  if (words.length === 0) return null;
  let sum = 0;
  for (const word of words) sum += word.confidence;
  return Math.round((sum / words.length) * 10000) / 10000;
}
