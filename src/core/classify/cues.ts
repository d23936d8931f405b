/**
 * Cue rules: each class's cue words and patterns, counted on the document, weighted up in the heading zone (the
 * first lines of the first page and short lines) where a document names itself ("INVOICE", "Gutschrift").
 */
import type { DocumentClass } from "../project";
import { fold, fuzzyMatches, tokensOf } from "../extract/fuzzy";
import { NO_ALNUM_AFTER, NO_ALNUM_BEFORE } from "../extract/word-bounds";
import { mayMatch, type Needs, patternNeeds } from "./pattern-literals";
import { titleKey, titleLines } from "./heading-zone";
import { holds, textGrams, wordGrams } from "./text-grams";

export { headingText, headingZones, isShortHeadingLine, mayBeShortHeading, titleZone } from "./heading-zone";

export interface CueHit {
  cue: string;
  count: number;
  heading: boolean;
  /** The cue is a line of its own in the heading zone. */
  title?: boolean;
  negative?: boolean;
  /** What the hit added to the class's score (negative for a negative cue). */
  points: number;
}

export interface CueScore {
  class_id: string;
  score: number;
  hits: CueHit[];
}

const regexCache = new Map<string, RegExp>();
function cueRegex(cue: string, isPattern: boolean): RegExp {
  const key = `${isPattern ? "p" : "w"}:${cue}`;
  let re = regexCache.get(key);
  if (!re) {
    // Cues and text are compared with accents folded away ("rückgeld" finds "RUCKGELD" from OCR).
    const body = isPattern
      ? fold(cue)
      : fold(cue.toLowerCase())
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\s+/g, "[\\s.\\-]*");
    // A cue word also matches its plural ("invoices", "receipts").
    re = new RegExp(isPattern ? body : `${NO_ALNUM_BEFORE}${body}(?:s|es)?${NO_ALNUM_AFTER}`, "giu");
    regexCache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * Matches of a global regex, counted up to 5. `exec` on the cached regex instead of `matchAll`, which clones the
 * regex and builds an iterator and a match array for every hit (~2% of the main thread on 500 pages). An empty
 * match moves on by one code point, as matchAll does.
 */
const count = (re: RegExp, text: string) => {
  re.lastIndex = 0;
  let n = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (++n >= 5) break;
    if (m[0] === "") re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
  }
  return n;
};

/** Extra points of a title: more than a heading hit, less than two, so labels standing alone cannot take over. */
const TITLE_BONUS = 2;
const cueTitleKeys = new Map<string, string>();
function cueTitleKey(cue: string): string {
  let k = cueTitleKeys.get(cue);
  if (k === undefined) cueTitleKeys.set(cue, (k = titleKey(cue)));
  return k;
}

/**
 * A pattern makes a title when it matches a whole title line: "Beitragsrechnung" or "Mietvertrag" name the document as
 * plainly as "Rechnung" does, but only a pattern for compounds finds them.
 */
const anchoredPatterns = new Map<string, RegExp | null>();
function titledByPattern(pattern: string, titles: Set<string>): boolean {
  if (!titles.size) return false;
  let re = anchoredPatterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${fold(pattern)})$`, "iu");
    } catch {
      re = null;
    }
    anchoredPatterns.set(pattern, re);
  }
  if (!re) return false;
  for (const t of titles) if (re.test(t)) return true;
  return false;
}

/** What every class's cues are counted on: the text and its heading zone, folded and lower-cased once per document. */
export interface CueText {
  lower: string;
  head: string;
  headTokens: ReturnType<typeof tokensOf>;
  titles: Set<string>;
  /**
   * `lower` holds no "ſ", the one character besides itself that the cue regexes' case-insensitive matching reads as
   * an ASCII letter ("s") in lower-cased text: a phrase lacking one of its ASCII words then cannot match.
   */
  plain: boolean;
  /** textGrams(lower): rules out most cue words without searching the text (text-grams.ts). */
  grams: Uint32Array;
}

/** `titles`: the text whose heading lines are titles (titleZone), or its title lines already taken (headingZones). */
export function cueTextOf(text: string, heading: string, ocr = false, titles: string | Set<string> = heading): CueText {
  const head = fold(heading.toLowerCase());
  const lower = fold(text.toLowerCase());
  return {
    lower,
    head,
    headTokens: ocr ? tokensOf(head) : [],
    titles: typeof titles === "string" ? titleLines(titles) : titles,
    plain: !lower.includes("\u017f"),
    grams: textGrams(lower),
  };
}

/** Cue patterns run over a document's text so far (a test holds them to the patterns a text may match). */
let patternScans = 0;
export const cuePatternScans = () => patternScans;

/** One cue of a class, with what scoring it needs worked out once. */
interface Cue {
  cue: string;
  isPattern: boolean;
  sign: 1 | -1;
  /** A cue word's first word, folded: it must occur as a substring before the cue's regex is worth running. */
  first: string;
  firstGrams: number[];
  /** A phrase of several words. */
  phrase: boolean;
  /** A phrase's ASCII words after the first, folded: its regex matches each literally (none for the others). */
  rest: string[];
  restGrams: number[][];
  re: RegExp | null;
  titleKey: string | null;
  /** A pattern's literal requirements (pattern-literals.ts): a text lacking one has no match. */
  needs: Needs;
}

/**
 * A class's cues in scoring order (cue words, patterns, negative cue words), prepared once per class object: the
 * per-cue look-ups by string (first word, regex, title key) ran ~170,000 times per 500 pages. Rebuilt when one of the
 * class's cue lists is replaced or changes length.
 */
const prepared = new WeakMap<DocumentClass, { lists: string[][]; lengths: number[]; cues: Cue[] }>();
function cuesOf(cls: DocumentClass): Cue[] {
  const seen = prepared.get(cls);
  // The same three lists, unchanged in length: compared one by one (this runs per class for every page classified).
  if (
    seen &&
    seen.lists[0] === cls.cue_words &&
    seen.lists[1] === cls.cue_patterns &&
    seen.lists[2] === cls.negative_cue_words &&
    seen.lengths[0] === cls.cue_words.length &&
    seen.lengths[1] === cls.cue_patterns.length &&
    seen.lengths[2] === cls.negative_cue_words.length
  )
    return seen.cues;
  const lists = [cls.cue_words, cls.cue_patterns, cls.negative_cue_words];
  const cue = (text: string, isPattern: boolean, sign: 1 | -1): Cue => {
    const first = isPattern ? "" : fold(text.toLowerCase()).trim().split(/\s+/)[0]!;
    const rest = isPattern
      ? []
      : fold(text.toLowerCase())
          .trim()
          .split(/\s+/)
          .slice(1)
          .filter((w) => /^[\x21-\x7e]+$/.test(w));
    return {
      cue: text,
      isPattern,
      sign,
      first,
      firstGrams: wordGrams(first),
      phrase: /\s/.test(text.trim()),
      rest,
      restGrams: rest.map(wordGrams),
      re: null,
      titleKey: null,
      needs: isPattern ? patternNeeds(fold(text)) : [],
    };
  };
  const cues = [
    ...cls.cue_words.map((c) => cue(c, false, 1)),
    ...cls.cue_patterns.map((c) => cue(c, true, 1)),
    ...cls.negative_cue_words.map((c) => cue(c, false, -1)),
  ];
  prepared.set(cls, { lists, lengths: lists.map((l) => l.length), cues });
  return cues;
}

/**
 * Scores a class: each cue counts log2(1 + occurrences) (capped at 5), three times more in the heading zone,
 * plus 2 when it is a title (a heading line of its own); a phrase of several words counts 1.5 times (more
 * specific); each pattern counts 2; negative cues subtract. `text` may come prepared by cueTextOf (one
 * preparation for all of a project's classes).
 */
export function scoreClass(cls: DocumentClass, text: string | CueText, heading = "", ocr = false): CueScore {
  const { lower, head, headTokens, titles, plain, grams } =
    typeof text === "string" ? cueTextOf(text, heading, ocr) : text;
  const hits: CueHit[] = [];
  let score = 0;
  const add = (c: Cue) => {
    const { cue, isPattern, sign } = c;
    if (!isPattern && !holds(lower, grams, c.first, c.firstGrams)) {
      // On OCR text a heading cue may carry one misread letter ("lNVOICE"); it counts, a little less.
      if (sign > 0 && !isPattern && headTokens.length && fuzzyMatches(headTokens, cue).length) {
        const points = 0.8 * 3 * (c.phrase ? 1.5 : 1);
        score += points;
        hits.push({ cue: `${cue} (OCR-tolerant)`, count: 1, heading: true, points });
      }
      return;
    }
    // A phrase whose other words are not in the text has no match: its search through the whole text is spared.
    if (plain && c.rest.length && !c.rest.every((w, i) => holds(lower, grams, w, c.restGrams[i]!))) return;
    // Likewise a pattern whose required words are not all in the text.
    if (plain && c.needs.length && !mayMatch(lower, c.needs)) return;
    const re = (c.re ??= cueRegex(cue, isPattern));
    if (isPattern) patternScans++;
    const n = count(re, lower);
    if (!n) return;
    const inHeading = count(re, head) > 0;
    const specificity = isPattern ? 2 : c.phrase ? 1.5 : 1;
    // A title ("CREDIT NOTE" on a line of its own) names the document: it outweighs generic cues such as "VAT".
    const title = isPattern ? titledByPattern(cue, titles) : titles.has((c.titleKey ??= cueTitleKey(cue)));
    const points = sign * specificity * (Math.log2(1 + n) * (inHeading ? 3 : 1) + (title ? TITLE_BONUS : 0));
    score += points;
    hits.push({
      points,
      cue: isPattern ? `/${cue}/` : cue,
      count: n,
      heading: inHeading,
      title: title || undefined,
      negative: sign < 0 || undefined,
    });
  };
  for (const c of cuesOf(cls)) add(c);
  hits.sort(
    (a, b) =>
      Number(b.title ?? false) - Number(a.title ?? false) || Number(b.heading) - Number(a.heading) || b.count - a.count,
  );
  return { class_id: cls.id, score: Math.max(0, score), hits };
}

export function describeHits(hits: CueHit[], max = 4): string {
  return hits
    .filter((h) => !h.negative)
    .slice(0, max)
    .map((h) => `"${h.cue}"${h.count > 1 ? ` ×${h.count}` : ""}${h.title ? " (title)" : h.heading ? " (heading)" : ""}`)
    .join(", ");
}
