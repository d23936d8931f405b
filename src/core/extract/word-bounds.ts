/**
 * Word boundaries for regexes built at run time (one per label, cue word or allowed value): no letter or digit
 * just before, none just after.
 *
 * Written as an alternation of two property escapes, not as one class `[\p{L}\p{N}]`: JavaScriptCore builds the
 * union of two Unicode properties anew for every regex that holds one, ~45 µs per regex to construct and compile
 * against ~8 µs (measured on 300 label regexes), and a run builds ~280 label and ~80 cue regexes. Both forms match
 * exactly the same strings (one code point that is a letter or a number); test/core/extract/word-bounds.test.ts compares
 * them on every label and cue of the default project over the corpora's text.
 */
export const NO_ALNUM_BEFORE = "(?<!\\p{L}|\\p{N})";
export const NO_ALNUM_AFTER = "(?!\\p{L}|\\p{N})";
/** After a label: "º" and "ª" are letters to Unicode but number signs on documents ("Factura nº 12"). */
export const NO_ALNUM_AFTER_BUT_ORDINAL = "(?!(?![ºª])(?:\\p{L}|\\p{N}))";
/** Before a label that starts with a sign: neither a letter, a number nor "#". */
export const NO_ALNUM_OR_HASH_BEFORE = "(?<!\\p{L}|\\p{N}|#)";

/**
 * The label is part of an e-mail address or web address ("seller@email.de", "www.rechnung-online.de"): the token
 * around it holds an "@", a "www." or a domain ending, so it names a mailbox or a site, not a field. OCR may read a
 * space on either side of the "@" ("seller @email.de"): the neighbouring token starting or ending with it counts.
 */
export function inAddressToken(text: string, start: number, end: number): boolean {
  const from = text.lastIndexOf(" ", start - 1) + 1;
  const to = text.indexOf(" ", end);
  const token = text.slice(from, to < 0 ? text.length : to);
  // "@" before a rate ("VAT @ 20%", "CGST@ 9%") is "at", not an address (spelt with spaces by OCR or not).
  const at = token.indexOf("@");
  if (at >= 0 && !/^@\s*\d/.test(text.slice(from + at))) return true;
  if (/www\.|https?:|\.(com|de|fr|nl|es|it|eu|net|org|io|at|ch|be|co\.uk)\b/i.test(token)) return true;
  const rate = /^@\s*\d/.test(text.slice(to + 1));
  return (to >= 0 && text[to + 1] === "@" && !rate) || (from >= 2 && text[from - 2] === "@");
}

/** The letters in `s` (code points of \p{L}): counted by char code while the text is ASCII, the regex counts the rest. */
export function letters(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return n + (s.slice(i).match(/\p{L}/gu) ?? []).length;
    if ((c | 32) >= 97 && (c | 32) <= 122) n++;
  }
  return n;
}
