import { afterAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import sharp from "sharp";
import { analyseAfterReading, processTransaction } from "../../src/core/pipeline";
import { defaultProject } from "../../src/core/project";
import { createOcrEngine, type OcrEngine } from "../../src/core/engines/ocr";
import { memorySink } from "../../src/core/exporters";
import { ocrPages } from "../../src/core/stages/ocr";
import { splitPages } from "../../src/core/stages/split";
import type { Page, SourceInput } from "../../src/core/model";

const corpora = resolve(import.meta.dir, "../../fixtures/corpora");
const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
afterAll(() => ocr.close());

const meta = () => ({
  transaction_id: crypto.randomUUID(),
  tenant_id: "default",
  project_id: "default",
  project_version: 3,
  correlation_id: "c-1",
  metadata: { k: "v" },
  created_at: new Date().toISOString(),
  source: "test",
});
async function source(index: number, path: string, name = path.split("/").pop()!): Promise<SourceInput> {
  return { index, filename: name, data: new Uint8Array(await Bun.file(path).arrayBuffer()), split_policy: "inherit" };
}

describe("processTransaction", () => {
  test("a corrupt file makes the result partial while the readable file is fully processed", async () => {
    const good = await source(0, `${corpora}/invoice2data/AzureInterior.pdf`);
    const bad: SourceInput = {
      index: 1,
      filename: "broken.pdf",
      data: new TextEncoder().encode("%PDF-1.7\n1 0 obj <<"),
      split_policy: "inherit",
    };
    const res = await processTransaction(
      { sources: [good, bad] },
      { meta: meta(), project: defaultProject, ocr, sink: memorySink() },
    );
    expect(res.status).toBe("partial");
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0]).toMatchObject({ source_file_index: 1, stage: "convert" });
    expect(res.results.documents).toHaveLength(1);
    expect(res.results.documents[0].fields.invoice_number.value).toBe("INV/2023/03/0008");
    expect(res.results.transaction).toMatchObject({
      project_version: 3,
      correlation_id: "c-1",
      source_file_names: ["AzureInterior.pdf", "broken.pdf"],
    });
    expect(Object.keys(res.manifest.profiles)).toEqual(["json"]);
  });

  test("page_limit counts across files, in request order, and supplied text follows the uploads", async () => {
    const a = await source(0, `${corpora}/invoice2data/AzureInterior.pdf`);
    const b = await source(1, `${corpora}/invoice2data/coolblue1.pdf`);
    const res = await processTransaction(
      { sources: [a, b], pageLimit: 1 },
      { meta: meta(), project: defaultProject, ocr, sink: memorySink() },
    );
    expect(res.pages.map((p) => [p.page_number, p.source_filename])).toEqual([[1, "AzureInterior.pdf"]]);
    const withText = await processTransaction(
      { sources: [a], documentText: "Invoice 77\fpage two" },
      { meta: meta(), project: defaultProject, ocr, sink: memorySink() },
    );
    expect(withText.pages.map((p) => [p.page_number, p.text_source])).toEqual([
      [1, "text_layer"],
      [2, "supplied_text"],
      [3, "supplied_text"],
    ]);
  });

  test("the OCR engine is warmed before an image is decoded, with the project's languages; a text PDF never warms it", async () => {
    const calls: string[] = [];
    const spy: OcrEngine = {
      name: "spy",
      workers: 1,
      warm: async (languages, pages) => void calls.push(`warm ${languages?.join("+") ?? "-"} ${pages}`),
      recognize: async (img, o) => (calls.push("recognize"), ocr.recognize(img, o)),
      close: async () => {},
    };
    const project = { ...defaultProject, ocr: { ...defaultProject.ocr, languages: ["eng", "deu"] } };
    const scan = await source(0, `${corpora}/invoice2data/FlipkartInvoice.png`);
    await processTransaction({ sources: [scan] }, { meta: meta(), project, ocr: spy, sink: memorySink() });
    expect(calls[0]).toBe("warm eng+deu 1"); // one image: one worker ahead, not all of them
    expect(calls).toContain("recognize");
    calls.length = 0;
    await processTransaction(
      { sources: [await source(0, `${corpora}/invoice2data/AzureInterior.pdf`)] },
      { meta: meta(), project: defaultProject, ocr: spy, sink: memorySink() },
    );
    expect(calls).toEqual([]);
  }, 120_000);

  test("when every file is unreadable the transaction fails with the first file's error", async () => {
    const bad: SourceInput = { index: 0, filename: "empty.pdf", data: new Uint8Array(), split_policy: "inherit" };
    await expect(
      processTransaction({ sources: [bad] }, { meta: meta(), project: defaultProject, ocr, sink: memorySink() }),
    ).rejects.toMatchObject({ code: "empty_file" });
  });
});

describe("one render per scanned page", () => {
  test("separator detection reuses the raster the OCR stage renders", async () => {
    const img = sharp(`${corpora}/ocr-text/tesseract-test/phototest.tif`);
    const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let renders = 0;
    const page: Page = {
      page_number: 1,
      source_file_index: 0,
      source_filename: "phototest.tif",
      source_file_page_number: 1,
      image_transform: {
        rasterized_width: info.width,
        rasterized_height: info.height,
        source_width: info.width,
        source_height: info.height,
        source_unit: "pixel",
        render_scale: 1,
        effective_dpi: null,
        coordinate_system: "top-left-origin",
        rotation: 0,
      },
      text_source: "none",
      words: [],
      text: "",
      ocr_confidence: null,
      render: async () => {
        renders++;
        return { data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels as 3 };
      },
    };
    const files = [{ index: 0, filename: "phototest.tif", policy: "inherit" as const, pages: [page] }];
    await ocrPages([page], ocr, { onRead: analyseAfterReading(files, defaultProject) });
    expect(page.text_source).toBe("ocr");
    // phototest has 225 characters of text, few enough for a separator sheet: it is looked at, after OCR.
    expect(page.barcodes).toEqual([]);
    expect(page.is_blank).toBe(false);
    const spans = await splitPages(files, defaultProject.split);
    expect(spans.map((s) => s.page_numbers)).toEqual([[1]]);
    expect(renders).toBe(1);
  });
});
