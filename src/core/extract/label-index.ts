/**
 * Which lines may hold which labels, answered without running a label's regex: each label list is indexed by its
 * labels' first words, each line by its folded tokens (and each line list by token postings), so findLabels
 * (labels.ts) runs a label's regex only on the lines holding its first word. Text-layer lines only: OCR lines are
 * matched with an error allowance and always may hold a label.
 */
import type { Line } from "./lines";
import { fold } from "./fuzzy";

/**
 * Which labels can occur on a line, found by looking the line's words up by each label's first word: the regex of
 * a label runs only on lines that hold its first word (labels × lines × fields would otherwise add up).
 */
export interface LabelIndex {
  byFirstWord: Map<string, number[]>;
  /** byFirstWord's keys, for indexed loops (searchPlan runs for every label search of a document). */
  firstWords: string[];
  others: Array<{ rank: number; first: string }>;
}
const indexes = new WeakMap<string[], LabelIndex>();
export function labelIndex(labels: string[]): LabelIndex {
  let index = indexes.get(labels);
  if (!index) {
    index = { byFirstWord: new Map(), firstWords: [], others: [] };
    labels.forEach((label, rank) => {
      const words = fold(label.replace(/^\^/, "").toLowerCase()).trim().split(/\s+/);
      const first = words[0]!;
      if (/^[\p{L}\p{N}]+$/u.test(first))
        index!.byFirstWord.set(first, [...(index!.byFirstWord.get(first) ?? []), rank]);
      else index!.others.push({ rank, first: needleOf(words) });
      // OCR (and some text layers) lose the space inside a label ("BILLTO"): its words joined are a first word too.
      const joined = words.join("");
      if (words.length > 1 && /^\p{L}+$/u.test(joined))
        index!.byFirstWord.set(joined, [...(index!.byFirstWord.get(joined) ?? []), rank]);
    });
    index.firstWords = [...index.byFirstWord.keys()];
    indexes.set(labels, index);
  }
  return index;
}

/**
 * What a line must contain for a label not starting with a word to match: the label's longest word (ASCII, trailing
 * dots and colons cut). Every word of a label is in its regex literally, so any of them will do, and the longest
 * rules out most lines: "n. fattura" looked for as "n" sent nearly every line to that label's regex.
 */
function needleOf(words: string[]): string {
  let best = words[0]!.replace(/[.:]+$/, "");
  for (const w of words.slice(1)) {
    const word = w.replace(/[.:]+$/, "");
    if (word.length > best.length && /^[\x21-\x7e]+$/.test(word)) best = word;
  }
  return best;
}

interface LineInfo {
  folded: string;
  lower: string;
  tokens: string[];
  /** `lower` holds no "ſ": a label's ASCII words must then all be in it (label-regex.ts CompiledList). */
  plain: boolean;
}
const TOKEN_GAP = /[^\p{L}\p{N}]+/u;

/**
 * The distinct strings, in first-seen order (what `[...new Set(parts)]` gives): a line has a few dozen tokens, and
 * building a Set for each of a document's lines cost more than these comparisons.
 */
function distinct(parts: string[]): string[] {
  if (parts.length > 64) return [...new Set(parts)]; // a pathological line: no quadratic work
  const out: string[] = [];
  for (const p of parts) if (!out.includes(p)) out.push(p);
  return out;
}
const lineInfo = new WeakMap<Line, LineInfo>();
export function infoOf(line: Line): LineInfo {
  let info = lineInfo.get(line);
  if (!info) {
    const folded = fold(line.text);
    const lower = folded.toLowerCase();
    const parts = lower.split(TOKEN_GAP);
    // OCR drops the space between a label and a number ("tva8"): the letters are a token of their own too.
    if (line.page.text_source === "ocr" && /\p{L}\p{N}/u.test(lower))
      for (const p of [...parts]) if (/\p{L}\p{N}/u.test(p)) parts.push(p.split(/(?<=\p{L})(?=\p{N})/u)[0]!);
    info = { folded, lower, tokens: distinct(parts), plain: !lower.includes("\u017f") };
    lineInfo.set(line, info);
  }
  return info;
}

/**
 * False when findLabels(lines, labels) surely finds nothing on this line: a text-layer line holding none of the
 * labels' first words. (OCR lines are matched with an error allowance, so they always may.)
 */
export function mayHoldLabel(line: Line, labels: string[]): boolean {
  return line.page.text_source === "ocr" || candidateRanks(line, labelIndex(labels)).length > 0;
}

/**
 * How many of the label lists may have a label on this line (mayHoldLabel for each list, counted up to `enough`):
 * the line's words are looked up once for all lists instead of once per list (a bit each, so for up to 30 lists).
 */
export function listsMayHold(line: Line, lists: string[][], enough: number): number {
  if (line.page.text_source === "ocr") return Math.min(enough, lists.length);
  if (lists.length > 30) {
    let count = 0;
    for (const labels of lists) if (mayHoldLabel(line, labels) && ++count >= enough) break;
    return count;
  }
  const index = multiIndex(lists);
  const info = infoOf(line);
  let mask = 0;
  for (const t of info.tokens) mask |= index.byFirstWord.get(t) ?? 0;
  for (const o of index.others) if ((mask & o.mask) !== o.mask && info.lower.includes(o.first)) mask |= o.mask;
  let count = 0;
  for (let m = mask; m !== 0 && count < enough; m &= m - 1) count++;
  return count;
}

/** Per list of label lists: each first word (and each non-word first token) with the bits of the lists having it. */
interface MultiIndex {
  byFirstWord: Map<string, number>;
  others: Array<{ mask: number; first: string }>;
}
const multiIndexes = new WeakMap<string[][], MultiIndex>();
function multiIndex(lists: string[][]): MultiIndex {
  let index = multiIndexes.get(lists);
  if (!index) {
    index = { byFirstWord: new Map(), others: [] };
    const others = new Map<string, number>();
    lists.forEach((labels, i) => {
      const single = labelIndex(labels);
      for (const first of single.byFirstWord.keys())
        index!.byFirstWord.set(first, (index!.byFirstWord.get(first) ?? 0) | (1 << i));
      for (const o of single.others) others.set(o.first, (others.get(o.first) ?? 0) | (1 << i));
    });
    index.others = [...others].map(([first, mask]) => ({ first, mask }));
    multiIndexes.set(lists, index);
  }
  return index;
}

export function candidateRanks(line: Line, index: LabelIndex): number[] {
  const info = infoOf(line);
  const ranks: number[] = [];
  // Indexed loops: this runs for every line of every label search, and in a fresh process the iterator protocol of
  // `for…of` (pushAll) cost about 1% of the main thread here before the JIT had compiled it away.
  const tokens = info.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const found = index.byFirstWord.get(tokens[i]!);
    if (found) for (let k = 0; k < found.length; k++) ranks.push(found[k]!);
  }
  for (const o of index.others) if (info.lower.includes(o.first)) ranks.push(o.rank);
  // Tokens are unique per line and each rank sits under one first word, so there are no duplicates to remove.
  return ranks.length > 1 ? ranks.sort((a, b) => a - b) : ranks;
}

/**
 * Per line list (a document's lines are searched for every field): whether it holds OCR lines, line positions by
 * token (infoOf's tokens), and its lines' lower-cased texts joined (a needle not in them is on none of its lines).
 */
interface ListInfo {
  ocr: boolean;
  postings: Map<string, number[]>;
  lower: string;
}
const listInfos = new WeakMap<Line[], ListInfo>();
function listInfoOf(lines: Line[]): ListInfo {
  let info = listInfos.get(lines);
  if (!info) {
    const postings = new Map<string, number[]>();
    lines.forEach((line, i) => {
      for (const t of infoOf(line).tokens) {
        const list = postings.get(t);
        if (list) list.push(i);
        else postings.set(t, [i]);
      }
    });
    const ocr = lines.some((l) => l.page.text_source === "ocr");
    info = { ocr, postings, lower: lines.map((l) => infoOf(l).lower).join("\n") };
    listInfos.set(lines, info);
  }
  return info;
}

/**
 * The lines that can hold a hit, in their order, each with its candidate ranks (what candidateRanks gives for it):
 * on text-layer lines only those holding a label's first word or, for a label not starting with a word, its first
 * token as a substring (candidateRanks finds nothing on the others). The ranks come from the list's postings, a
 * label's first word at a time, instead of looking up each token of each line again for every label list. Null for
 * OCR lines (fuzzy matching) and short lists: they are searched line by line with candidateRanks.
 */
export interface SearchPlan {
  lines: Line[];
  ranks: number[][];
}
export function searchPlan(lines: Line[], index: LabelIndex): SearchPlan | null {
  if (lines.length < 16) return null;
  const list = listInfoOf(lines);
  if (list.ocr) return null;
  const map = list.postings;
  // Per line position, in line order: the same ranks as candidateRanks (first words' ranks, then the others').
  const at: Array<number[] | undefined> = new Array(lines.length);
  const firsts = index.firstWords;
  for (let f = 0; f < firsts.length; f++) {
    const found = map.get(firsts[f]!);
    if (!found) continue;
    const ranks = index.byFirstWord.get(firsts[f]!)!;
    for (let k = 0; k < found.length; k++) {
      const i = found[k]!;
      const those = (at[i] ??= []);
      for (let r = 0; r < ranks.length; r++) those.push(ranks[r]!);
    }
  }
  for (const o of index.others) {
    const found = linesHolding(lines, o.first);
    for (let k = 0; k < found.length; k++) (at[found[k]!] ??= []).push(o.rank);
  }
  const plan: SearchPlan = { lines: [], ranks: [] };
  for (let i = 0; i < lines.length; i++) {
    const ranks = at[i];
    if (!ranks) continue;
    plan.lines.push(lines[i]!);
    plan.ranks.push(ranks.length > 1 ? ranks.sort((a, b) => a - b) : ranks);
  }
  return plan;
}

/** Positions of the lines whose lower-cased text contains `needle` (a label not starting with a word: "#", "n°"). */
const holding = new WeakMap<Line[], Map<string, number[]>>();
function linesHolding(lines: Line[], needle: string): number[] {
  let byNeedle = holding.get(lines);
  if (!byNeedle) holding.set(lines, (byNeedle = new Map()));
  let found = byNeedle.get(needle);
  if (!found) {
    found = [];
    if (listInfoOf(lines).lower.includes(needle))
      for (let i = 0; i < lines.length; i++) if (infoOf(lines[i]!).lower.includes(needle)) found.push(i);
    byNeedle.set(needle, found);
  }
  return found;
}
