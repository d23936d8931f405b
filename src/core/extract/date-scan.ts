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
 * folding is plain lower-casing; any other letter makes it give up (null), and the caller uses DATE_RE itself.
 */

const LETTER_RUN = /\p{L}+/gu;
/** Letters whose lower case is their case folding: ASCII, Latin-1 and Latin Extended-A/B, less ſ, İ and ı. */
const FOLDS_AS_LOWER = /^[A-Za-z\u00c0-\u012f\u0132-\u017e\u0180-\u024f]+$/;
const DAY_SUFFIX = new Set(["st", "nd", "rd", "th", "er"]);
/**
 * What may stand between a month-name match's start and its month: the day's digits, a suffix ("st", "er"), a
 * dot, white space, "de", a dash or slash ("12-Mar-24"). Also ſ, which the /iu flags read as "s".
 */
const BEFORE_MONTH = /[\d.\-/stndrhe\u017f\s]/i;
const DIGIT = /\d/;

export interface DateSearch {
  /** DATE_RE itself (flags giu). */
  all: RegExp;
  /** Its numeric alternatives alone (flags giu). */
  numeric: RegExp;
  /** Its month-name alternatives alone, sticky (flags iuy). */
  monthNamed: RegExp;
  /** Lower-case month names, as in the alternation. */
  months: Set<string>;
}

/**
 * Where a month name of DATE_RE may start (ascending, deduplicated), or null when the text has letters this test
 * cannot judge. A name starts a run of letters, or two letters into it after a day suffix ("1st", "1er"); it ends
 * the run or is followed by "d" ("marchde 2024": the optional "de" may touch the name).
 */
export function monthNameStarts(text: string, months: Set<string>): number[] | null {
  const isMonthAt = (word: string) => {
    if (months.has(word)) return true;
    for (let k = word.indexOf("d", 3); k > 0; k = word.indexOf("d", k + 1)) if (months.has(word.slice(0, k))) return true;
    return false;
  };
  const out: number[] = [];
  for (const m of text.matchAll(LETTER_RUN)) {
    const run = m[0];
    if (run.length < 3) continue;
    if (!FOLDS_AS_LOWER.test(run)) return null;
    const word = run.toLowerCase();
    if (isMonthAt(word)) out.push(m.index!);
    else if (word.length >= 5 && DAY_SUFFIX.has(word.slice(0, 2)) && isMonthAt(word.slice(2))) out.push(m.index! + 2);
  }
  return out;
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

/** Every match of DATE_RE in `text`, in order, as matchAll would give them. */
export function* dateMatches(text: string, search: DateSearch): Generator<RegExpExecArray> {
  const starts = monthNameStarts(text, search.months);
  if (starts === null) {
    yield* text.matchAll(search.all);
    return;
  }
  if (starts.length === 0) {
    yield* text.matchAll(search.numeric);
    return;
  }
  const candidates = monthMatchStarts(text, starts);
  const numeric = new RegExp(search.numeric.source, search.numeric.flags);
  const named = new RegExp(search.monthNamed.source, search.monthNamed.flags);
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
