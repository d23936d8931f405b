/** readPages: convert + OCR of one source outside a run (docproc train, the folder review), as the OCR stage reads. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import path from "node:path";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import type { SourceInput } from "../../../../src/core/model.ts";
import { readPages } from "../../../../src/core/stages/ocr/read-pages.ts";

setDefaultTimeout(120_000); // real OCR of a scanned page: seconds, more on a loaded machine

const INBOX = path.resolve(import.meta.dir, "../../../../fixtures/inbox");
const source = async (name: string): Promise<SourceInput> => ({
  index: 0,
  filename: name,
  data: new Uint8Array(await Bun.file(path.join(INBOX, name)).arrayBuffer()),
  split_policy: "inherit",
});

let engine: OcrEngine | null = null;
const ocr = async () => {
  engine ??= await createOcrEngine({ engine: "wasm", workers: 1 });
  return engine;
};
afterAll(async () => engine?.close());

test("a born-digital PDF is read from its text layer without starting an OCR engine", async () => {
  let started = 0;
  const { source: read, warnings } = await readPages(await source("born-digital-invoice.pdf"), {
    firstPageNumber: 1,
    maxPages: null,
    ocr: () => {
      started++;
      return ocr();
    },
  });
  await read.close();
  expect(started).toBe(0);
  expect(warnings).toEqual([]);
  expect(read.pages[0]!.text_source).toBe("text_layer");
  expect(read.pages[0]!.text).toContain("Invoice");
});

test("a scanned PDF's pages are OCR'd; `wants` leaves out the pages the caller does not ask for", async () => {
  const all = await readPages(await source("scanned-invoice.pdf"), { firstPageNumber: 1, maxPages: null, ocr });
  await all.source.close();
  expect(all.source.pages.every((p) => p.text_source === "ocr")).toBe(true);
  expect(all.source.pages[0]!.words.length).toBeGreaterThan(20);

  const none = await readPages(await source("scanned-invoice.pdf"), {
    firstPageNumber: 1,
    maxPages: null,
    ocr,
    languages: ["eng"],
    wants: () => false,
  });
  await none.source.close();
  expect(none.source.pages.every((p) => p.text_source === "none" && p.words.length === 0)).toBe(true);
});
