/**
 * The language part of the `ocr` slice of the project settings: what a project may name and what it reads with
 * when it names nothing. The engines choose among the languages they can load (engines/ocr/languages.ts).
 */

export const DEFAULT_LANGUAGES: readonly string[] = ["eng"];
/** Tesseract's model names: ISO 639-2 code, optionally a script or variant (`chi_sim`, `deu_latf`). */
export const LANGUAGE_CODE = /^[a-z]{3}(_[a-z]{3,4})?$/;
