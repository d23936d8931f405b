/**
 * The language of a page from its own words, for zero-configuration OCR (no `ocr.languages` in the project): the
 * first reading is English, and a page whose words are those of another language is read again with that language's
 * model next to English. Evidence is the words every business document prints in its language (articles,
 * prepositions, the labels of an invoice), compared with diacritics removed, because the English model reads
 * "für" as "fur" and "Straße" as "Strasse": what it gets wrong is exactly what the other model would read right.
 */
import { MARKERS } from "./language-markers";

/** A language needs this many marker words on the page to be considered at all (a name or two decides nothing). */
const MIN_HITS = 4;
/** ... and this lead over the runner-up among the other languages: words shared by related languages decide nothing. */
const LEAD = 1.5;

const INDEX: Map<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [lang, words] of Object.entries(MARKERS)) for (const w of words) out.set(w, [...(out.get(w) ?? []), lang]);
  return out;
})();

/** Lower case, diacritics and the marks OCR leaves around a word removed ("Fällig:" → "fallig"). */
function plain(word: string): string {
  return word
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
}

/** Marker words per language in `text`; a word that marks several languages counts for each. */
export function languageEvidence(text: string): Map<string, number> {
  const hits = new Map<string, number>();
  for (const raw of text.split(/\s+/)) {
    const langs = INDEX.get(plain(raw));
    if (langs) for (const l of langs) hits.set(l, (hits.get(l) ?? 0) + 1);
  }
  return hits;
}

/**
 * The language other than English that the page's text is written in, or null (English, too little text, or a
 * language the engine cannot read: `has`). A bilingual page whose other language clearly leads is read with it.
 */
export function guessLanguage(text: string, has: (lang: string) => boolean = () => true): string | null {
  const hits = languageEvidence(text);
  const ranked = [...hits].filter(([l]) => l !== "eng").sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [best, runnerUp] = ranked;
  if (!best) return null;
  if (best[1] < MIN_HITS || best[1] < (hits.get("eng") ?? 0)) return null;
  if (runnerUp && best[1] < runnerUp[1] * LEAD) return null;
  return has(best[0]) ? best[0] : null;
}
