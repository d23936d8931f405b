/**
 * The language of a page from its own words, for zero-configuration OCR (no `ocr.languages` in the project): the
 * first reading is English, and a page whose words are those of another language is read again with that language's
 * model next to English. Evidence is the words every business document prints in its language (articles,
 * prepositions, the labels of an invoice), compared with diacritics removed, because the English model reads
 * "für" as "fur" and "Straße" as "Strasse": what it gets wrong is exactly what the other model would read right.
 */
import { MARKERS } from "./language-markers";
import { COUNTRY_IDS, NAME_MARKERS } from "./language-name-markers";

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

/** Name-marker words count one each; a VAT ID or IBAN of the country counts this much. */
const COUNTRY_ID_WEIGHT = 2;
/** Evidence a names language needs: two name words, or one registration of its country. */
const MIN_NAME_EVIDENCE = 2;

/**
 * The language the parties' names and addresses are written in when it is not the page's own (`page`: guessLanguage's
 * answer, null for English), or null. Evidence: legal forms and street words of the language's countries
 * (language-name-markers.ts) and VAT IDs / IBANs with their country prefix. An English invoice between German
 * companies gives "deu": its labels read fine in English, but "Schäfer" and "Würzburg" need the German model.
 */
export function namesLanguage(
  text: string,
  page: string | null,
  has: (lang: string) => boolean = () => true,
): string | null {
  const points = new Map<string, number>();
  const add = (lang: string, n: number) => points.set(lang, (points.get(lang) ?? 0) + n);
  for (const raw of text.split(/\s+/)) {
    const word = plain(raw);
    if (!word) continue;
    for (const [lang, re] of Object.entries(NAME_MARKERS)) if (re.test(word)) add(lang, 1);
  }
  for (const [re, lang] of COUNTRY_IDS) for (const _ of text.matchAll(re)) add(lang, COUNTRY_ID_WEIGHT);
  const ranked = [...points]
    .filter(([l, n]) => l !== page && n >= MIN_NAME_EVIDENCE && has(l))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return ranked[0]?.[0] ?? null;
}
