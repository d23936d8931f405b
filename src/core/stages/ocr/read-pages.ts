/**
 * Read a source's pages outside a transaction run: convert it, then OCR the pages without a usable text layer with
 * the project's languages. `docproc train` (example texts) and the folder review (page words and images) use it,
 * so they read a page as the OCR stage does instead of wiring convert and OCR by hand.
 *
 * The caller MUST close the returned source (its pages render from it). The OCR engine is asked for only when a
 * page needs it, so born-digital files never start one.
 */
import type { Page, SourceInput } from "../../model.ts";
import type { OcrEngine } from "../../engines/ocr/types.ts";
import { convertSource, type ConvertedSource, type ConvertOptions } from "../convert/index.ts";
import { ocrPages } from "./index.ts";

export interface ReadPagesOptions extends ConvertOptions {
  ocr: () => OcrEngine | Promise<OcrEngine>;
  /** The project's `ocr.languages`; the engine's default (English) when absent. */
  languages?: readonly string[];
  /** Which of the pages without a text layer to read (default: all of them). */
  wants?: (page: Page) => boolean;
}

export async function readPages(
  src: SourceInput,
  opts: ReadPagesOptions,
): Promise<{ source: ConvertedSource; warnings: string[] }> {
  const { ocr, languages, wants, ...convert } = opts;
  const source = await convertSource(src, convert);
  try {
    const pages = source.pages.filter((p) => p.text_source === "none" && (wants?.(p) ?? true));
    const warnings = pages.length ? (await ocrPages(pages, await ocr(), { languages })).warnings : [];
    return { source, warnings };
  } catch (err) {
    await source.close();
    throw err;
  }
}
