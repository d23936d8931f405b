/**
 * Extraction of a long document (issue 18, memory bounded by design): a document of LONG_DOCUMENT_WORDS words or
 * more is extracted with young collections paced by its line scans (extract/gc-pace.ts), shorter ones without (and
 * so are documents read ahead from page LONG_TRANSACTION_PAGES of a transaction on), and
 * what an extraction leaves alive does not grow with the document's length. Checked without timing or RSS: counts
 * of collections and of live objects after a full collection.
 */
import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import type { FieldResult, Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import {
  LONG_DOCUMENT_WORDS,
  LONG_TRANSACTION_PAGES,
  extractAhead,
  extractFields,
} from "../../../src/core/stages/extract";
import { pacedCollections } from "../../../src/core/extract/gc-pace";

/** Prose without two table-column labels on a line, so the fields found do not grow with the page count. */
const VOCABULARY =
  "the of and to in for on with by from our your we will invoice order payment customer account service total net due date number reference period terms contract supplier support thank please note within days bank transfer".split(
    " ",
  );
const WORDS_PER_LINE = 10;
const LINES_PER_PAGE = 42;

/** Page `n` of a prose document: a heading, then lines of words, an amount or a date now and then. */
function prosePage(n: number): Page {
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

const WORDS_PER_PAGE = 2 + WORDS_PER_LINE * (LINES_PER_PAGE - 1);
/** Enough pages to reach LONG_DOCUMENT_WORDS. */
const LONG = Math.ceil(LONG_DOCUMENT_WORDS / WORDS_PER_PAGE);
const pagesOf = (count: number, from = 1) => Array.from({ length: count }, (_, i) => prosePage(from + i));

/** Objects alive after a full collection. */
function liveObjects(): number {
  Bun.gc(true);
  return heapStats().objectCount;
}

describe("extraction of a long document", () => {
  test("a document of LONG_DOCUMENT_WORDS words or more runs paced young collections; a shorter one none", () => {
    extractFields(pagesOf(2), "invoice", defaultProject); // loads every module and memo an extraction uses
    const before = pacedCollections();
    extractFields(pagesOf(LONG - 2), "invoice", defaultProject);
    expect(pacedCollections()).toBe(before);
    extractFields(pagesOf(LONG), "invoice", defaultProject);
    expect(pacedCollections()).toBeGreaterThan(before);
  }, 120_000);

  test("documents extracted ahead deep in a long transaction (page LONG_TRANSACTION_PAGES on) run paced; earlier ones not", () => {
    const ahead = (from: number) => {
      const before = pacedCollections();
      for (const page of pagesOf(40, from)) extractAhead([page], "invoice", defaultProject);
      return pacedCollections() - before;
    };
    expect(ahead(1)).toBe(0);
    expect(ahead(LONG_TRANSACTION_PAGES)).toBeGreaterThan(0);
  }, 120_000);

  test("what an extraction leaves alive does not grow with the document's length (N vs 2N pages)", async () => {
    // Test files run one after another in a process: let what the ones before left running (a pdf.js document being
    // destroyed, timers) finish first. In CI a measurement once saw 9,588 of their objects go.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const kept: Array<Record<string, FieldResult>> = [];
    const leftAlive = (count: number): number => {
      const before = liveObjects();
      kept.push(extractFields(pagesOf(count), "invoice", defaultProject));
      return liveObjects() - before;
    };
    leftAlive(4); // warm-up: modules, memos and compiled regular expressions
    // Samples interleaved N, 2N, N, 2N, N: what other test files' leftovers allocate during a measurement only ever
    // adds to it, and what of theirs goes only subtracts, so the least 2N against the most N is the extraction's own
    // difference (one pair under load 10 once counted others' objects; a leak that grows with the length shows in
    // every 2N sample: the lines of 2N pages alone would be over 100,000 objects).
    const sizes = [LONG, 2 * LONG, LONG, 2 * LONG, LONG];
    const alive = sizes.map((count) => leftAlive(count));
    const ofN = alive.filter((_, i) => sizes[i] === LONG);
    const of2N = alive.filter((_, i) => sizes[i] === 2 * LONG);
    // The same fields are found on both (the prose repeats its kinds of values).
    expect(Object.keys(kept[2]!)).toEqual(Object.keys(kept[1]!));
    expect(Math.min(...of2N) - Math.max(...ofN)).toBeLessThan(2_000);
  }, 120_000);
});
