/**
 * What a cue pattern's every match must contain, read from its source: the ASCII letter and digit runs it requires
 * literally ("rechnung" in `(?<![\p{L}])\p{L}{3,}rechnung(?![\p{L}])`) and its required groups of literal
 * alternatives (`\b(visa|mastercard|maestro)\b`: one of the three). A text holding none of a requirement has no
 * match, so the pattern's regex (a case-insensitive Unicode scan of the whole document, `\p{L}{3,}` retried at every
 * word start) is not run on it (cues.ts). Anything this reader does not know for sure (a top-level `|`, an escape
 * naming a character, a quantified group) yields fewer requirements or none: never one a match could lack.
 */

/** Requirements of a pattern: each an array of alternatives (lower-cased), one of which every match contains. */
export type Needs = string[][];

/** Escapes that stand for no particular letter or digit (classes, boundaries) or for punctuation. */
const OPAQUE_ESCAPE = /^[bBdDsSwW]$|^[^\p{L}\p{N}]$/u;
const QUANTIFIER = /^(?:[?*+]|\{\d+(?:,\d*)?\})/;
const ALNUM = /^[A-Za-z0-9]$/;
const LITERAL_ALTERNATIVES = /^(?:\?:)?([A-Za-z0-9 ]+(?:\|[A-Za-z0-9 ]+)*)$/;

/** The requirements of `source` (see the module comment); [] when none are known. */
export function patternNeeds(source: string): Needs {
  const needs: Needs = [];
  let run = "";
  const end = () => {
    if (run.length >= 2) needs.push([run.toLowerCase()]);
    run = "";
  };
  for (let i = 0; i < source.length; ) {
    const ch = source[i]!;
    let atom: string | null = null; // a literal letter or digit; null for anything else
    let next = i + 1;
    let group: string | null = null;
    if (ch === "|") return []; // alternatives at the top: nothing is required of every match
    if (ch === "\\") {
      const e = source[i + 1] ?? "";
      if (e === "p" || e === "P") {
        const close = source.indexOf("}", i);
        if (source[i + 2] !== "{" || close < 0) return [];
        next = close + 1;
      } else if (OPAQUE_ESCAPE.test(e)) next = i + 2;
      else return []; // \u, \x, \k, back-references…: not read here
    } else if (ch === "[") {
      next = classEnd(source, i);
      if (next < 0) return [];
    } else if (ch === "(") {
      const close = groupEnd(source, i);
      if (close < 0) return [];
      group = source.slice(i + 1, close);
      next = close + 1;
    } else if (ALNUM.test(ch)) atom = ch;
    else if (ch === ")" || ch === "]") return [];
    const quantified = QUANTIFIER.exec(source.slice(next));
    if (quantified) next += quantified[0].length;
    if (atom && !quantified) run += atom;
    else {
      end();
      const alternatives = !quantified && group !== null ? LITERAL_ALTERNATIVES.exec(group) : null;
      if (alternatives) needs.push(alternatives[1]!.toLowerCase().split("|"));
    }
    i = next;
  }
  end();
  return needs;
}

/** The index after the character class opening at `at` (JavaScript's: the first unescaped "]" closes it), or -1. */
function classEnd(source: string, at: number): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]") return i + 1;
  }
  return -1;
}

/** The index of the parenthesis closing the group opening at `at`, or -1. */
function groupEnd(source: string, at: number): number {
  let depth = 0;
  for (let i = at; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") {
      const e = classEnd(source, i);
      if (e < 0) return -1;
      i = e - 1;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Whether `lower` (lower-cased, holding no "ſ") can hold a match of a pattern with these requirements. */
export function mayMatch(lower: string, needs: Needs): boolean {
  for (const any of needs) if (!any.some((w) => lower.includes(w))) return false;
  return true;
}
