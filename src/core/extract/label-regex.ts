/**
 * Label regexes: one per label (and per OCR line), and a label list's regexes and words by rank for the label
 * search (labels.ts findLabels).
 */
import { fold } from "./fuzzy";
import { NO_ALNUM_AFTER_BUT_ORDINAL, NO_ALNUM_BEFORE, NO_ALNUM_OR_HASH_BEFORE } from "./word-bounds";

const cache = new Map<string, RegExp>();
/** After a label ending in a letter on an OCR line: no letter (an ordinal mark aside), a digit may follow. */
const OCR_TAIL = "(?!(?![ºª])\\p{L})";

/**
 * Label → regex: tokens separated by optional spaces/dots/dashes, word boundaries on both ends. Accents are folded
 * away (labels and lines alike), so "Fällig am" also matches "Fallig am".
 */
export function labelRegex(label: string, ocr = false): RegExp {
  const key = ocr ? `\u0000${label}` : label;
  let re = cache.get(key);
  if (!re) {
    // A leading "^" anchors the label at the start of the line ("^#" is a number sign opening a line).
    const anchored = label.startsWith("^");
    const bare = fold(anchored ? label.slice(1) : label);
    const tokens = bare
      .toLowerCase()
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    // OCR drops the space between a label and a number after it ("TVA8.1%", "Total540.74"): a digit may follow.
    const tail = /[\p{L}\p{N}]$/u.test(bare)
      ? ocr && /\p{L}$/u.test(bare)
        ? OCR_TAIL
        : NO_ALNUM_AFTER_BUT_ORDINAL
      : "";
    const head = anchored ? "^\\s*" : /^[\p{L}\p{N}]/u.test(bare) ? NO_ALNUM_BEFORE : NO_ALNUM_OR_HASH_BEFORE;
    re = new RegExp(`${head}${tokens.join("[\\s.\\-]*")}\\.?${tail}`, "giu");
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * A label list's regexes by rank (text-layer and OCR lines), fetched once per list instead of looked up by label per
 * line, and each label's words: a label's regex matches its words literally, one after the other, so a line whose
 * lower-cased text lacks one of them cannot hold it and is not searched. Only ASCII words are required that way:
 * among the characters a lower-cased line may hold, the regexes' case-insensitive matching reads only "ſ" as
 * another ASCII letter ("s"), and a line holding it is searched for every candidate label as before.
 */
export interface CompiledList {
  text: Array<RegExp | undefined>;
  ocr: Array<RegExp | undefined>;
  /** Each label's ASCII words. */
  words: string[][];
  /**
   * The same less a first word of letters and digits: the label index (label-index.ts) offers a label for a line
   * only when the line has that word as a token, or the label's words joined, which contain it.
   */
  after: string[][];
}
const compiledLists = new WeakMap<string[], CompiledList>();
export function compiledOf(labels: string[]): CompiledList {
  let list = compiledLists.get(labels);
  if (!list) {
    const split = labels.map((label) => fold(label.replace(/^\^/, "")).toLowerCase().trim().split(/\s+/));
    const ascii = (words: string[]) => words.filter((w) => /^[\x21-\x7e]+$/.test(w));
    const words = split.map(ascii);
    const after = split.map((w) => ascii(/^[\p{L}\p{N}]+$/u.test(w[0]!) ? w.slice(1) : w));
    compiledLists.set(labels, (list = { text: [], ocr: [], words, after }));
  }
  return list;
}

/** The regex of `labels[rank]` from its list's compiled regexes (lastIndex reset, as labelRegex does). */
export function rankRegex(list: CompiledList, labels: string[], rank: number, ocr: boolean): RegExp {
  const byRank = ocr ? list.ocr : list.text;
  const re = (byRank[rank] ??= labelRegex(labels[rank]!, ocr));
  re.lastIndex = 0;
  return re;
}

/** Whether a line's lower-cased text holds every word of a label (see CompiledList). */
export function holdsWords(lower: string, words: string[]): boolean {
  for (const w of words) if (!lower.includes(w)) return false;
  return true;
}
