/**
 * Split's per-page features (core/split/signals.ts), computed while the file converts and asked for again by Split,
 * are let go once Split has run (issue 34: nothing per page stays until the export that later stages do not need).
 * Counted, not timed: the remembered features at Split, at the export and after the run, for N and 2N pages. Before,
 * the export held one entry per page (6 and 12 here; ~3.6 MB per 1,000 invoice pages).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { PDFDocument } from "pdf-lib";
import { createOcrEngine } from "../../../src/core/engines/ocr";
import { memorySink } from "../../../src/core/exporters";
import { processTransaction } from "../../../src/core/pipeline";
import { defaultProject } from "../../../src/core/project";
import { pageFeatures, rememberedPageFeatures, forgetPageFeatures } from "../../../src/core/split/signals";
import { joinedInvoices, transactionMeta } from "./joined-invoices";

const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
afterAll(() => ocr.close());

/** The joined invoices `copies` times over: 6 pages and 4 documents per copy. */
async function copiesOf(copies: number): Promise<Uint8Array> {
  const one = await PDFDocument.load(await joinedInvoices());
  const out = await PDFDocument.create();
  for (let i = 0; i < copies; i++) for (const page of await out.copyPages(one, one.getPageIndices())) out.addPage(page);
  return out.save();
}

/** Remembered features (beyond those before the run) when Split starts, when the export starts and after the run. */
async function run(data: Uint8Array) {
  const base = rememberedPageFeatures();
  const seen = { split: -1, export: -1 };
  const onProgress = (step: string) => {
    if ((step === "split" || step === "export") && seen[step] < 0) seen[step] = rememberedPageFeatures() - base;
  };
  const res = await processTransaction(
    { sources: [{ index: 0, filename: "joined.pdf", data, split_policy: "inherit" }] },
    { meta: transactionMeta(), project: defaultProject, ocr, sink: memorySink(), onProgress },
  );
  return { res, ...seen, after: rememberedPageFeatures() - base };
}

describe("Split's page features", () => {
  test("are held while Split needs them, and the export holds none of them for N or 2N pages", async () => {
    for (const copies of [1, 2]) {
      const { res, split, export: atExport, after } = await run(await copiesOf(copies));
      expect(res.pages).toHaveLength(6 * copies);
      expect(res.results.documents).toHaveLength(4 * copies);
      // Reading ahead worked out every page's features before Split began...
      expect(split).toBe(6 * copies);
      // ...and none were left once Split had run, however long the file.
      expect(atExport).toBe(0);
      expect(after).toBe(0);
    }
  });

  test("remembered features are the features worked out again (band tokens kept as one string, a Set when asked)", async () => {
    const { res } = await run(await copiesOf(1));
    for (const page of res.pages) {
      const first = pageFeatures(page, "invoice");
      const again = pageFeatures(page, "invoice");
      expect(again).not.toBe(first);
      expect(again).toEqual(first);
      expect([...again.bandTokens]).toEqual([...first.bandTokens]);
      expect(first.bandTokens.size).toBeGreaterThan(2);
      forgetPageFeatures([page]);
    }
  });
});
