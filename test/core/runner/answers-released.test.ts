/**
 * Answers computed ahead for a run's pages (classes and fields, core/page-memo.ts) are let go once the stages that
 * ask for them have run (issue 34: nothing per page stays for the whole run that later stages do not need).
 * Counted, not timed: the memos' entries before, during and after runs.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { PDFDocument } from "pdf-lib";
import { createOcrEngine } from "../../../src/core/engines/ocr";
import { memorySink } from "../../../src/core/exporters";
import { processTransaction } from "../../../src/core/pipeline";
import { defaultProject } from "../../../src/core/project";
import { rememberedClassifications } from "../../../src/core/stages/classify";
import { extractedAheadHeld } from "../../../src/core/stages/extract";
import type { SplitPolicy } from "../../../src/core/model";

const corpus = resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data");
const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
afterAll(() => ocr.close());

/** Invoices of one and two pages in one PDF: 6 pages, 4 documents. */
async function joined(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const name of ["AmazonWebServices", "QualityHosting", "AzureInterior", "free_fiber"]) {
    const doc = await PDFDocument.load(await Bun.file(`${corpus}/${name}.pdf`).arrayBuffer());
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

const meta = () => ({
  transaction_id: crypto.randomUUID(),
  tenant_id: "default",
  project_id: "default",
  project_version: 1,
  correlation_id: null,
  metadata: {},
  created_at: new Date().toISOString(),
  source: "test",
});

/** Runs the file; returns the memo counts seen when Split starts (reading ahead done) and after the run. */
async function run(data: Uint8Array, policy: SplitPolicy) {
  const base = { classes: rememberedClassifications(), fields: extractedAheadHeld() };
  let atSplit = { classes: -1, fields: -1 };
  const onProgress = (step: string) => {
    if (step === "split" && atSplit.classes < 0)
      atSplit = { classes: rememberedClassifications() - base.classes, fields: extractedAheadHeld() - base.fields };
  };
  const res = await processTransaction(
    { sources: [{ index: 0, filename: "joined.pdf", data, split_policy: policy }] },
    { meta: meta(), project: defaultProject, ocr, sink: memorySink(), onProgress },
  );
  const after = { classes: rememberedClassifications() - base.classes, fields: extractedAheadHeld() - base.fields };
  return { res, atSplit, after };
}

describe("answers computed ahead", () => {
  test("are held while the stages need them and let go when they have run", async () => {
    const { res, atSplit, after } = await run(await joined(), "inherit");
    expect(res.results.documents.map((d) => d.split.page_numbers)).toEqual([[1], [2, 3], [4], [5, 6]]);
    // Reading ahead classified every page and extracted every document before Split began.
    expect(atSplit.classes).toBeGreaterThanOrEqual(6);
    expect(atSplit.fields).toBe(4);
    expect(after).toEqual({ classes: 0, fields: 0 });
  });

  test("fields of documents the splitter cut otherwise, never taken, go too; runs after runs hold nothing", async () => {
    const data = await joined();
    for (let i = 0; i < 3; i++) {
      const { res, atSplit, after } = await run(data, "single_document");
      expect(res.results.documents).toHaveLength(1);
      expect(atSplit.fields).toBe(4);
      expect(after).toEqual({ classes: 0, fields: 0 });
    }
  });
});
