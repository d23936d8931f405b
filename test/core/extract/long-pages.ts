/**
 * Prose pages for the long-document tests (long.test.ts and the measurement it runs in a process of its own,
 * long-alive.ts): a document of LONG pages reaches LONG_DOCUMENT_WORDS.
 */
import type { Page, Word } from "../../../src/core/model";
import { LONG_DOCUMENT_WORDS } from "../../../src/core/stages/extract";

/** Prose without two table-column labels on a line, so the fields found do not grow with the page count. */
const VOCABULARY =
  "the of and to in for on with by from our your we will invoice order payment customer account service total net due date number reference period terms contract supplier support thank please note within days bank transfer".split(
    " ",
  );
const WORDS_PER_LINE = 10;
const LINES_PER_PAGE = 42;

/** Page `n` of a prose document: a heading, then lines of words, an amount or a date now and then. */
export function prosePage(n: number): Page {
  let seed = n * 7919;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const rows = [[`Statement`, `${100000 + n}`]];
  for (let i = 1; i < LINES_PER_PAGE; i++) {
    rows.push(
      Array.from({ length: WORDS_PER_LINE }, () => {
        const r = rand();
        if (r < 0.03) return `${(rand() * 9999).toFixed(2)}`;
        if (r < 0.05) return `${1 + Math.floor(rand() * 28)}.${1 + Math.floor(rand() * 12)}.2024`;
        return VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!;
      }),
    );
  }
  const words: Word[] = rows.flatMap((row, line) => {
    let x = 100;
    return row.map((text) => {
      const word: Word = {
        text,
        confidence: 1,
        bounding_box: [x, 100 + line * 60, x + text.length * 18, 130 + line * 60],
        line,
      };
      x += (text.length + 1) * 18;
      return word;
    });
  });
  return {
    page_number: n,
    source_file_index: 0,
    source_filename: "long.pdf",
    source_file_page_number: n,
    image_transform: {
      rasterized_width: 2480,
      rasterized_height: 3508,
      source_width: 595,
      source_height: 842,
      source_unit: "point",
      render_scale: 300 / 72,
      effective_dpi: 300,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "text_layer",
    words,
    text: rows.map((r) => r.join(" ")).join("\n"),
    ocr_confidence: 1,
  };
}

export const WORDS_PER_PAGE = 2 + WORDS_PER_LINE * (LINES_PER_PAGE - 1);
/** Enough pages to reach LONG_DOCUMENT_WORDS. */
export const LONG = Math.ceil(LONG_DOCUMENT_WORDS / WORDS_PER_PAGE);
export const pagesOf = (count: number, from = 1) => Array.from({ length: count }, (_, i) => prosePage(from + i));
