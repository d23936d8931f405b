/**
 * The date search of normalize.ts, without trying its 300 month names at every position of a text.
 *
 * DATE_RE is one alternation: numeric forms first, then forms with a month name. Its month-name forms cost nearly
 * all of its time, yet a month name can only stand where `monthNameStarts` finds one. So the numeric forms are
 * searched as usual and the month-name forms only at the few positions from which a match could reach such a
 * start; merged leftmost-first, numeric first on a tie, resuming after each match, as matchAll over DATE_RE would.
 *
 * MUST give exactly DATE_RE's matches. `monthNameStarts` may over-report, never miss: it judges runs of letters
 * (\p{L}, as DATE_RE's boundaries do) made of ASCII and Latin-1/Latin Extended letters, where the /iu flags' case
 * folding is plain lower-casing; a run with any other letter is reported at both places a name could start.
 */

const LETTER_RUN = /\p{L}+/gu;
/** Letters whose lower case is their case folding: ASCII, Latin-1 and Latin Extended-A/B, less ſ, İ and ı. */
const FOLDS_AS_LOWER = /^[A-Za-z\u00c0-\u012f\u0132-\u017e\u0180-\u024f]+$/;
const DAY_SUFFIX = new Set(["st", "nd", "rd", "th", "er"]);
/**
 * What may stand between a month-name match's start and its month: the day's digits, a suffix ("st", "er"), a
 * dot (with a speck: "15.:JUN"), white space, "de", a dash or slash ("12-Mar-24"). Also ſ, which the /iu flags read
 * as "s".
 */
const BEFORE_MONTH = /[\d.:,\-/stndrhe\u017f\s]/i;
const DIGIT = /\d/;

export interface DateSearch {
  /** DATE_RE itself (flags giu). */
  all: RegExp;
  /** Its numeric alternatives alone (flags giu). */
  numeric: RegExp;
  /** Its month-name alternatives alone, sticky (flags iuy). */
  monthNamed: RegExp;
  /** Lower-case month names, as in the alternation (monthNamesOf). */
  months: MonthNames;
}

/**
 * Where a month name of DATE_RE may start, ascending. A name starts a run of letters, or two letters into it after
 * a day suffix ("1st", "1er"); it ends the run or is followed by "d" ("marchde 2024": the optional "de" may touch
 * the name). A run with letters this test cannot judge reports both places.
 */
export function monthNameStarts(text: string, months: MonthNames): number[] {
  const out: number[] = [];
  if (SURROGATE.test(text)) {
    // Letters outside the BMP: runs as the regex sees them (code points), each judged as usual.
    for (const m of text.matchAll(LETTER_RUN))
      judgeRun(text, m.index!, m.index! + m[0].length, FOLDS_AS_LOWER.test(m[0]), months, out);
    return out;
  }
  for (let i = 0; i < text.length; ) {
    if (!isLetter(text, i)) {
      i++;
      continue;
    }
    const start = i;
    let safe = true;
    for (; i < text.length && isLetter(text, i); i++)
      if (text.charCodeAt(i) >= 0x80 && !FOLDS_AS_LOWER.test(text[i]!)) safe = false;
    judgeRun(text, start, i, safe, months, out);
  }
  return out;
}

/** Month names, and the first three letters of each (most runs fail on those without building a string). */
export interface MonthNames {
  names: Set<string>;
  prefixes: Set<string>;
  asciiPrefixes: Set<number>;
}

export function monthNamesOf(names: Iterable<string>): MonthNames {
  const set = new Set(names);
  const prefixes = new Set([...set].map((n) => n.slice(0, 3)));
  const asciiPrefixes = new Set([...prefixes].map((p) => asciiKey(p, 0)).filter((k) => k >= 0));
  return { names: set, prefixes, asciiPrefixes };
}

/** Three ASCII letters at `i`, lower-cased, as one number; -1 when any is not an ASCII letter. */
function asciiKey(text: string, i: number): number {
  let key = 0;
  for (let k = i; k < i + 3; k++) {
    const c = text.charCodeAt(k) | 32;
    if (c < 97 || c > 122 || text.charCodeAt(k) >= 0x80) return -1;
    key = key * 128 + c;
  }
  return key;
}

const SUFFIX_KEYS = new Set([...DAY_SUFFIX].map((x) => asciiKey(x + "a", 0)));

/** Whether the three letters at `i` begin some month name. */
function monthPrefixAt(text: string, i: number, months: MonthNames): boolean {
  const key = asciiKey(text, i);
  return key >= 0 ? months.asciiPrefixes.has(key) : months.prefixes.has(text.slice(i, i + 3).toLowerCase());
}

/** Whether the two letters at `i` are a day suffix ("st", "ER"). */
function suffixAt(text: string, i: number): boolean {
  const key = asciiKey(text.slice(i, i + 2) + "a", 0);
  return key >= 0 ? SUFFIX_KEYS.has(key) : DAY_SUFFIX.has(text.slice(i, i + 2).toLowerCase());
}

function judgeRun(text: string, start: number, end: number, safe: boolean, months: MonthNames, out: number[]): void {
  if (end - start < 3) return;
  if (!safe) {
    out.push(start);
    if (end - start >= 5) out.push(start + 2);
    return;
  }
  if (monthPrefixAt(text, start, months) && isMonthAt(text.slice(start, end).toLowerCase(), months.names))
    out.push(start);
  else if (end - start >= 5 && monthPrefixAt(text, start + 2, months) && suffixAt(text, start)) {
    if (isMonthAt(text.slice(start + 2, end).toLowerCase(), months.names)) out.push(start + 2);
  }
}

function isMonthAt(word: string, names: Set<string>): boolean {
  if (names.has(word)) return true;
  for (let k = word.indexOf("d", 3); k > 0; k = word.indexOf("d", k + 1)) if (names.has(word.slice(0, k))) return true;
  return false;
}

const SURROGATE = /[\ud800-\udfff]/;
const LETTER = /\p{L}/u;
function isLetter(text: string, i: number): boolean {
  const c = text.charCodeAt(i) | 32;
  if (c >= 97 && c <= 122) return true;
  return text.charCodeAt(i) >= 0x80 && LETTER.test(text[i]!);
}

/** Positions from which a month-name match could start: each name's start and the digits just before it. */
function monthMatchStarts(text: string, starts: number[]): number[] {
  const out = new Set<number>();
  for (const c of starts) {
    let p = c;
    while (p > 0 && BEFORE_MONTH.test(text[p - 1]!)) p--;
    for (; p < c; p++) if (DIGIT.test(text[p]!)) out.add(p);
    out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The search's two regexes, copied once per search so that `search.numeric` (matchAll elsewhere) keeps its own
 * lastIndex. Generators running at the same time may share the copies: each exec sets lastIndex right before it
 * runs, with nothing in between. Copying per call read `source` of the month-name regex (~2 KB, re-escaped at
 * every read): ~16 ms per 500 pages in a warm server.
 */
const copies = new WeakMap<DateSearch, { numeric: RegExp; named: RegExp }>();
function ownCopies(search: DateSearch): { numeric: RegExp; named: RegExp } {
  let own = copies.get(search);
  if (!own) {
    own = {
      numeric: new RegExp(search.numeric.source, search.numeric.flags),
      named: new RegExp(search.monthNamed.source, search.monthNamed.flags),
    };
    copies.set(search, own);
  }
  return own;
}

/** Every match of DATE_RE in `text`, in order, as matchAll would give them. */
export function* dateMatches(text: string, search: DateSearch): Generator<RegExpExecArray> {
  const starts = monthNameStarts(text, search.months);
  if (starts.length === 0) {
    yield* text.matchAll(search.numeric);
    return;
  }
  const candidates = monthMatchStarts(text, starts);
  const { numeric, named } = ownCopies(search);
  let k = 0; // candidates before k are behind the scan or failed
  let found: RegExpExecArray | null = null;
  // A sticky attempt at one position gives the same answer whatever was matched before, so a match found ahead of
  // the scan stays valid until the scan passes its start.
  const nextNamed = (from: number): RegExpExecArray | null => {
    if (found && found.index >= from) return found;
    while (k < candidates.length && candidates[k]! < from) k++;
    for (; k < candidates.length; k++) {
      named.lastIndex = candidates[k]!;
      if ((found = named.exec(text))) return found;
    }
    return null;
  };
  for (let pos = 0; pos < text.length; ) {
    numeric.lastIndex = pos;
    const n = numeric.exec(text);
    const m = nextNamed(pos);
    const take = n && (!m || n.index <= m.index) ? n : m;
    if (!take) return;
    yield take;
    pos = take.index + take[0].length;
  }
}
