/**
 * Answers computed ahead for a run's pages (classes and fields, core/page-memo.ts) are let go once the stages that
 * ask for them have run (issue 34: nothing per page stays for the whole run that later stages do not need).
 * Counted, not timed: the memos' entries before, during and after runs.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createOcrEngine } from "../../../src/core/engines/ocr";
import { memorySink } from "../../../src/core/exporters";
import { processTransaction } from "../../../src/core/pipeline";
import { defaultProject } from "../../../src/core/project";
import { rememberedClassifications } from "../../../src/core/stages/classify";
import { extractedAheadHeld } from "../../../src/core/stages/extract";
import type { SplitPolicy } from "../../../src/core/model";
import { joinedInvoices, transactionMeta } from "./joined-invoices";
import { cachedWordCount, residentPackedBytes } from "../../../src/core/convert/page-words";

const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
afterAll(() => ocr.close());

/** Runs the file; returns the memo counts seen when Split starts (reading ahead done) and after the run. */
async function run(data: Uint8Array, policy: SplitPolicy) {
  const base = { classes: rememberedClassifications(), fields: extractedAheadHeld() };
  const words = { cached: cachedWordCount(), resident: residentPackedBytes() };
  let atSplit = { classes: -1, fields: -1 };
  let cachedAtExport = -1;
  const onProgress = (step: string) => {
    if (step === "export" && cachedAtExport < 0) cachedAtExport = cachedWordCount() - words.cached;
    if (step === "split" && atSplit.classes < 0)
      atSplit = { classes: rememberedClassifications() - base.classes, fields: extractedAheadHeld() - base.fields };
  };
  const res = await processTransaction(
    { sources: [{ index: 0, filename: "joined.pdf", data, split_policy: policy }] },
    { meta: transactionMeta(), project: defaultProject, ocr, sink: memorySink(), onProgress },
  );
  const after = { classes: rememberedClassifications() - base.classes, fields: extractedAheadHeld() - base.fields };
  const wordsAfter = { cached: cachedWordCount() - words.cached, resident: residentPackedBytes() - words.resident };
  return { res, atSplit, after, wordsAfter, cachedAtExport };
}

describe("answers computed ahead", () => {
  test("are held while the stages need them and let go when they have run", async () => {
    const { res, atSplit, after } = await run(await joinedInvoices(), "inherit");
    expect(res.results.documents.map((d) => d.split.page_numbers)).toEqual([[1], [2, 3], [4], [5, 6]]);
    // Reading ahead classified every page and extracted every document before Split began.
    expect(atSplit.classes).toBeGreaterThanOrEqual(6);
    expect(atSplit.fields).toBe(4);
    expect(after).toEqual({ classes: 0, fields: 0 });
  });

  test("the run's words are let go when it ends: nothing of its pages stays in the word caches", async () => {
    const { res, wordsAfter, cachedAtExport } = await run(await joinedInvoices(), "inherit");
    // Already once Extract had run: the export held none of them.
    expect(cachedAtExport).toBeLessThanOrEqual(0);
    // The run read its pages' words (their packed words were held, and the unpacked ones cached, meanwhile)...
    expect(res.pages.reduce((n, p) => n + p.words.length, 0)).toBeGreaterThan(600);
    // ...and once it ended neither cache held any of them (before the reads just above).
    expect(wordsAfter.cached).toBeLessThanOrEqual(0);
    expect(wordsAfter.resident).toBeLessThanOrEqual(0);
  });

  test("fields of documents the splitter cut otherwise, never taken, go too; runs after runs hold nothing", async () => {
    const data = await joinedInvoices();
    for (let i = 0; i < 3; i++) {
      const { res, atSplit, after } = await run(data, "single_document");
      expect(res.results.documents).toHaveLength(1);
      expect(atSplit.fields).toBe(4);
      expect(after).toEqual({ classes: 0, fields: 0 });
    }
  });
});
