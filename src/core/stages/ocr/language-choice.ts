/**
 * Which languages the OCR stage reads a page with. A project that names `ocr.languages` gets exactly those. Without
 * them (zero configuration) a page is read in English first, and when its words say it is written in another
 * language the engine has (engines/ocr/language-guess.ts), it is read again with that language next to English:
 * the English model loses umlauts and accents ("Schafer" for "Schäfer"), a combined model reads both. The choice is
 * remembered per source file, so its later pages are read with it straight away (one pass each), and a source whose
 * text layer (on other pages) already says the language starts with it. Dutch is read again too, although the English
 * model spells its words as printed on clean pages (word F1 equal on the bench's three Dutch pages): on a phone photo
 * of a Dutch invoice (fixtures/golden/inbox/phone-photo) the English reading alone lost the seller's VAT ID.
 *
 * The parties' names may be written in another language than the page (an English or French invoice between German
 * companies, language-guess.ts `namesLanguage`): the page is then read once more with that language (deu+eng) only
 * to take its names' umlauts and accents (language-merge.ts); the reading in the page's own language stands
 * otherwise, so labels, amounts and dates read as before.
 */
import type { Page } from "../../model.ts";
import type { OcrEngine } from "../../engines/ocr/types.ts";
import { guessLanguage, namesLanguage } from "../../engines/ocr/language-guess.ts";

/** What to do after a page's first reading: read it again with `read` (it replaces the first), and/or let a reading
 * with `lend` lend it its names' diacritics (language-merge.ts). */
export interface SecondReading {
  read: string[] | null;
  lend: string[] | null;
}

export interface LanguagePlan {
  /** Languages to read `page` with first; undefined for the engine's default (English). */
  first(page: Page): readonly string[] | undefined;
  /** After the first reading (`text`, read with `used`: undefined for English), what else to read, or null. */
  again(page: Page, text: string, used: readonly string[] | undefined): SecondReading | null;
}

export function languagePlan(explicit: readonly string[] | undefined, engine: OcrEngine, pages: Page[]): LanguagePlan {
  if (explicit?.length) return { first: () => explicit, again: () => null };
  const has = (lang: string) => engine.has?.(lang) ?? false;
  const chosen = new Map<number, string[]>();
  // Pages with a text layer speak for the scanned pages of the same file. Gathered when a page is first read, not
  // for every run: a 2,000-page born-digital file has nothing to read and copied its texts into a new list per page.
  let layers: Map<number, string[]> | null = null;
  const layersOf = () => {
    if (layers) return layers;
    layers = new Map<number, string[]>();
    for (const p of pages) {
      if (p.text_source !== "text_layer" || !p.text) continue;
      const list = layers.get(p.source_file_index);
      if (list) list.push(p.text);
      else layers.set(p.source_file_index, [p.text]);
    }
    return layers;
  };
  const fromLayer = new Map<number, string | null>();
  const decided = (page: Page): string[] | undefined => {
    const src = page.source_file_index;
    const hit = chosen.get(src);
    if (hit) return hit;
    // A lazily started engine cannot say which languages it has before it started (every engine has English).
    if (!fromLayer.has(src) && layersOf().has(src) && has("eng"))
      fromLayer.set(src, guessLanguage(layersOf().get(src)!.join("\n"), has));
    const lang = fromLayer.get(src);
    return lang ? [lang, "eng"] : undefined;
  };
  return {
    first: decided,
    again(page, text, used) {
      // A page read with its file's language already: only its names may want another.
      const guessed = used ? (used[0] ?? null) : guessLanguage(text, has);
      const names = namesLanguage(text, guessed === "eng" ? null : guessed, has);
      const lend = names ? [names, "eng"] : null;
      const lang = guessed;
      if (used || !lang) return lend ? { read: null, lend } : null;
      chosen.set(page.source_file_index, [lang, "eng"]);
      return { read: [lang, "eng"], lend };
    },
  };
}
