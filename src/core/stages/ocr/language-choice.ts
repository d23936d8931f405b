/**
 * Which languages the OCR stage reads a page with. A project that names `ocr.languages` gets exactly those. Without
 * them (zero configuration) a page is read in English first, and when its words say it is written in another
 * language the engine has (engines/ocr/language-guess.ts), it is read again with that language next to English:
 * the English model loses umlauts and accents ("Schafer" for "Schäfer"), a combined model reads both. The choice is
 * remembered per source file, so its later pages are read with it straight away (one pass each), and a source whose
 * text layer (on other pages) already says the language starts with it.
 *
 * The parties' names may be written in another language than the page (an English or French invoice between German
 * companies, language-guess.ts `namesLanguage`): a French page is then read with fra+deu+eng, and an English page is
 * read again with deu+eng only to take its names' umlauts and accents (language-merge.ts): its English reading
 * stands otherwise, and a file's later pages are read in English first again.
 */
import type { Page } from "../../model.ts";
import type { OcrEngine } from "../../engines/ocr/types.ts";
import { guessLanguage, namesLanguage } from "../../engines/ocr/language-guess.ts";

export interface LanguagePlan {
  /** Languages to read `page` with first; undefined for the engine's default (English). */
  first(page: Page): readonly string[] | undefined;
  /**
   * After a first reading in English, `text`: the languages to read the page again with, or null when it stands.
   * `merge`: the second reading only lends the first its names' diacritics (language-merge.ts); otherwise it replaces it.
   */
  again(page: Page, text: string): { languages: string[]; merge: boolean } | null;
}

export function languagePlan(explicit: readonly string[] | undefined, engine: OcrEngine, pages: Page[]): LanguagePlan {
  if (explicit?.length) return { first: () => explicit, again: () => null };
  const has = (lang: string) => engine.has?.(lang) ?? false;
  const chosen = new Map<number, string[]>();
  // Pages with a text layer speak for the scanned pages of the same file.
  const layers = new Map<number, string[]>();
  for (const p of pages)
    if (p.text_source === "text_layer" && p.text)
      layers.set(p.source_file_index, [...(layers.get(p.source_file_index) ?? []), p.text]);
  const fromLayer = new Map<number, string | null>();
  const decided = (page: Page): string[] | undefined => {
    const src = page.source_file_index;
    const hit = chosen.get(src);
    if (hit) return hit;
    // A lazily started engine cannot say which languages it has before it started (every engine has English).
    if (!fromLayer.has(src) && layers.has(src) && has("eng"))
      fromLayer.set(src, guessLanguage(layers.get(src)!.join("\n"), has));
    const lang = fromLayer.get(src);
    return lang ? [lang, "eng"] : undefined;
  };
  return {
    first: decided,
    again(page, text) {
      const lang = guessLanguage(text, has);
      const names = namesLanguage(text, lang, has);
      if (!lang) return names ? { languages: [names, "eng"], merge: true } : null;
      const langs = names ? [lang, names, "eng"] : [lang, "eng"];
      chosen.set(page.source_file_index, langs);
      return { languages: langs, merge: false };
    },
  };
}
