/**
 * Packed text-layer words (src/core/convert/page-words.ts, issue 18): a PDF page's words are kept packed and unpacked
 * when read, so what a run keeps per page does not include ~190 bytes of objects per word. Checked without timing
 * or RSS: words read back equal the eager ones, and the objects left after a run of 2N pages against N are counted
 * after a full collection.
 */
import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { PDFDocument, StandardFonts } from "pdf-lib";
import {
  cachedWordCount,
  releaseUnpackedWords,
  WORD_BUDGET,
  wordsIdentity,
} from "../../../src/core/convert/page-words";
import { unpackWords, packWords } from "../../../src/core/engines/pdf/pdf-protocol";
import { memorySink } from "../../../src/core/exporters";
import type { OcrEngine } from "../../../src/core/engines/ocr";
import { defaultProject } from "../../../src/core/project";
import { runTransaction, type RunOutcome } from "../../../src/core/runner";
import { convertSource } from "../../../src/core/stages/convert";

const noOcr = {
  name: "none",
  recognize: async () => {
    throw new Error("OCR was not expected");
  },
  close: async () => {},
} as unknown as OcrEngine;
const WORDS_PER_LINE = 10;
const LINES_PER_PAGE = 40;
/** A heading of two words and 39 lines of ten. */
const WORDS_PER_PAGE = WORDS_PER_LINE * (LINES_PER_PAGE - 1) + 2;

/** `count` pages of invoice-like text, WORDS_PER_PAGE words each, every page different. */
async function textPdf(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= count; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Invoice INV-${1000 + n}`, { x: 40, y: 800, size: 14, font });
    for (let i = 0; i < LINES_PER_PAGE - 1; i++) {
      const words = Array.from({ length: WORDS_PER_LINE }, (_, k) =>
        k === WORDS_PER_LINE - 1 ? `${n * 7 + i}.${(i * 13) % 100}` : `item${n}w${i}x${k}`,
      );
      page.drawText(words.join(" "), { x: 40, y: 770 - i * 18, size: 9, font });
    }
  }
  return doc.save();
}

const source = (data: Uint8Array) => ({ index: 0, filename: "pages.pdf", data, split_policy: "inherit" as const });
const run = (data: Uint8Array) =>
  runTransaction(
    { sources: [source(data)] },
    {
      meta: {
        transaction_id: crypto.randomUUID(),
        tenant_id: "local",
        project_id: "p",
        project_version: 1,
        correlation_id: null,
        metadata: {},
        created_at: "2026-01-01T00:00:00.000Z",
        source: "test",
      },
      project: defaultProject,
      ocr: noOcr,
      sink: memorySink(),
    },
  );

/** Arrays alive after a full collection (each unpacked word holds one: its bounding box). */
async function liveArrays(): Promise<number> {
  await Bun.sleep(0);
  Bun.gc(true);
  return heapStats().objectTypeCounts.Array ?? 0;
}

describe("packed text-layer words", () => {
  test("read back equal to the eager words, stable identity until assigned, and serialised as a plain array", async () => {
    const file = await convertSource(source(await textPdf(3)), { firstPageNumber: 1, maxPages: null });
    try {
      const page = file.pages[1]!;
      const identity = wordsIdentity(page);
      const first = page.words;
      expect(first.length).toBe(WORDS_PER_PAGE);
      expect(unpackWords(packWords(first, page.text), page.text)).toEqual(first);
      releaseUnpackedWords();
      expect(page.words).not.toBe(first); // unpacked again...
      expect(page.words).toEqual(first); // ...to the same words
      expect(wordsIdentity(page)).toBe(identity);
      expect(JSON.parse(JSON.stringify(page)).words).toEqual(JSON.parse(JSON.stringify(first)));
      expect(Object.keys(page).indexOf("words")).toBe(Object.keys(page).indexOf("text") - 1);
      const replaced = first.slice(0, 2);
      page.words = replaced;
      expect(page.words).toBe(replaced);
      expect(wordsIdentity(page)).toBe(replaced);
    } finally {
      await file.close();
    }
  });

  test("a run over 2N pages leaves no more word objects alive than a run over N: memory grows by what pages keep, not by their words", async () => {
    const n = 150; // 2N pages hold 117,600 words, more than the cache keeps
    const [small, large] = [await textPdf(n), await textPdf(2 * n)];
    await run(await textPdf(4)); // loads every module and memo a run uses
    const keep: RunOutcome[] = [];
    const alive = async (data: Uint8Array) => {
      keep.splice(0, keep.length, await run(data));
      expect(keep[0]!.status).toBe("success");
      expect(cachedWordCount()).toBeLessThanOrEqual(WORD_BUDGET);
      releaseUnpackedWords();
      return liveArrays();
    };
    const afterN = await alive(small);
    const after2N = await alive(large);
    const perExtraPage = (after2N - afterN) / n;
    // Words kept as objects would add an array per word (392 a page, each box); what a page and its one-page
    // document keep (fields with their boxes, in the results and the saved state) is ~85 arrays.
    expect(perExtraPage).toBeLessThan(200);
    // The outcome still reads every page's words, unpacked on demand.
    expect(keep[0]!.pages.reduce((sum, p) => sum + p.words.length, 0)).toBe(2 * n * WORDS_PER_PAGE);
  }, 120_000);
});
