/**
 * OCR languages (`ocr.languages` in the project): which tesseract models a page is read with. The engines differ in
 * what they can load: the native engine finds models in docproc's own tessdata and in the system's (Debian's
 * `tesseract-ocr-<lang>` packages), the embedded engine only in its own tessdata folder (the npm package ships
 * English). A requested language an engine cannot load is left out with a warning; the page is still read.
 */
import fs from "node:fs";
import path from "node:path";

import { DEFAULT_LANGUAGES, LANGUAGE_CODE } from "../../project/ocr";

export { DEFAULT_LANGUAGES, LANGUAGE_CODE };

export interface LanguageChoice {
  /** Languages to read with, in the requested order (never empty). */
  use: string[];
  /** Requested languages the engine cannot load. */
  missing: string[];
}

/** The requested languages the engine has; English when it has none of them (every engine ships English). */
export function chooseLanguages(
  requested: readonly string[] | undefined,
  has: (lang: string) => boolean,
): LanguageChoice {
  const wanted = [...new Set(requested?.length ? requested : DEFAULT_LANGUAGES)];
  const use = wanted.filter(has);
  const missing = wanted.filter((l) => !use.includes(l));
  return { use: use.length ? use : [...DEFAULT_LANGUAGES], missing };
}

/** Where `<lang>.traineddata` (or `.gz`) is in `dir`, or null. */
export function traineddataIn(dir: string | null | undefined, lang: string): { file: string; gzip: boolean } | null {
  if (!dir || !LANGUAGE_CODE.test(lang)) return null;
  for (const [name, gzip] of [
    [`${lang}.traineddata`, false],
    [`${lang}.traineddata.gz`, true],
  ] as const) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return { file, gzip };
  }
  return null;
}

export function missingLanguageWarning(engine: "native" | "embedded", choice: LanguageChoice): string {
  const list = choice.missing.join(", ");
  const how =
    engine === "native"
      ? `install its traineddata (Debian: ${choice.missing.map((l) => `tesseract-ocr-${l.replace(/_/g, "-")}`).join(", ")})`
      : `the embedded engine ships only what is in its tessdata folder; use ocr.engine native with the system's traineddata, or a tessdata folder (DOCPROC_TESSDATA) that holds it`;
  return `OCR language ${list} is not available to the ${engine} engine: pages were read with ${choice.use.join("+")} only; ${how}`;
}
