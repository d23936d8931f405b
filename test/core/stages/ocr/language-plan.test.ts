/**
 * The language plan reads the text layer only when a page is read (issue 34): a born-digital file with nothing to
 * OCR costs nothing, and a long one is gathered once (it was copied into a new list per page: quadratic garbage).
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "../../../../src/core/model";
import type { OcrEngine } from "../../../../src/core/engines/ocr/types";
import { languagePlan } from "../../../../src/core/stages/ocr/language-choice";

const GERMAN = "Rechnung für die Lieferung der Ware und Zahlung innerhalb von vierzehn Tagen ohne Abzug bitte.";

/** Pages whose `text` counts its reads. */
function pages(count: number, reads: { n: number }): Page[] {
  return Array.from({ length: count }, (_, i) => {
    const page = {
      page_number: i + 1,
      source_file_index: 0,
      source_filename: "a.pdf",
      source_file_page_number: i + 1,
      text_source: i === count - 1 ? "none" : "text_layer",
      words: [],
      ocr_confidence: null,
    } as unknown as Page;
    Object.defineProperty(page, "text", { get: () => (reads.n++, i === count - 1 ? "" : GERMAN) });
    return page;
  });
}

const engine = { name: "t", workers: 1, has: () => true } as unknown as OcrEngine;

describe("language plan over text-layer pages", () => {
  test("no page text is read until a page asks for its languages", () => {
    const reads = { n: 0 };
    languagePlan(undefined, engine, pages(2000, reads));
    expect(reads.n).toBe(0);
  });

  test("the first page read gathers each text once; the file's language comes from its text layer", () => {
    const reads = { n: 0 };
    const all = pages(2000, reads);
    const plan = languagePlan(undefined, engine, all);
    const first = plan.first(all.at(-1)!);
    expect(first).toEqual(["deu", "eng"]);
    const afterFirst = reads.n;
    expect(afterFirst).toBeLessThanOrEqual(2 * 2000);
    plan.first(all.at(-1)!);
    expect(reads.n).toBe(afterFirst);
  });
});
