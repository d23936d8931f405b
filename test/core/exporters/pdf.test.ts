import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "bun:test";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { memorySink, runExports } from "../../../src/core/exporters";
import { readSourceFile, sourceFileOpens } from "../../../src/core/engines/pdf/pdf-bytes";
import { isSourceFile, wholeBytes } from "../../../src/core/source-data";
import { buildFixture } from "./fixtures";

const FONTS = path.resolve(import.meta.dir, "../../../node_modules/pdfjs-dist/standard_fonts") + "/";

interface PdfPageInfo {
  text: string;
  rotate: number;
  width: number;
  height: number;
  /** Text items with their position in the page's PDF user space. */
  items: Array<{ str: string; x: number; y: number }>;
}

async function readPdf(data: Uint8Array): Promise<PdfPageInfo[]> {
  const params = {
    data: new Uint8Array(data),
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl: FONTS,
  };
  const task = pdfjs.getDocument(params as Parameters<typeof pdfjs.getDocument>[0]);
  const doc = await task.promise;
  const pages: PdfPageInfo[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    const items = content.items.filter((it) => "str" in it) as Array<{ str: string; transform: number[] }>;
    const [, , w, h] = page.view;
    pages.push({
      text: items
        .map((it) => it.str)
        .join(" ")
        .replace(/\s+/g, " ")
        .trim(),
      rotate: page.rotate,
      width: w!,
      height: h!,
      items: items
        .filter((it) => it.str.trim())
        .map((it) => ({ str: it.str, x: it.transform[4]!, y: it.transform[5]! })),
    });
  }
  await task.destroy();
  return pages;
}

describe("PDF export", () => {
  test("a source PDF left in its file (a large one, pdf-bytes.ts) is opened for the export and copied the same", async () => {
    const { ctx, sink } = await buildFixture();
    const file = path.join(mkdtempSync(path.join(tmpdir(), "docproc-pdf-export-")), "invoice.pdf");
    writeFileSync(file, wholeBytes(ctx.sources[0]!.data));
    const inFile = await readSourceFile(file, { fileBackedMin: 1 });
    expect(isSourceFile(inFile)).toBe(true);
    const opens = sourceFileOpens();
    const fromFile = { ...ctx, sink: memorySink(), sources: [{ ...ctx.sources[0]!, data: inFile }, ctx.sources[1]!] };
    await runExports(fromFile, [{ id: "pdf", name: "PDF", output_format: "pdf" }]);
    await runExports(ctx, [{ id: "pdf", name: "PDF", output_format: "pdf" }]);
    expect(sourceFileOpens() - opens).toBe(1); // once for the export run, not per document or page
    expect(await readPdf(fromFile.sink.files.get("invoice_0.pdf")!)).toEqual(
      await readPdf(sink.files.get("invoice_0.pdf")!),
    );
    rmSync(path.dirname(file), { recursive: true, force: true });
  });

  test("one PDF per split document, PDF source pages copied with their text", async () => {
    const { ctx, sink } = await buildFixture();
    const m = await runExports(ctx, [{ id: "pdf", name: "PDF", output_format: "pdf" }]);
    expect(m.profiles.pdf!.status).toBe("success");
    const invoice = await readPdf(sink.files.get("invoice_0.pdf")!);
    expect(invoice).toHaveLength(2);
    expect(invoice.map((p) => p.text)).toEqual(["Invoice 00123 page one", "Invoice 00123 page two"]);
    expect([invoice[0]!.width, invoice[0]!.height]).toEqual([612, 792]);
    const receipt = await readPdf(sink.files.get("receipt scan_1.pdf")!);
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.text).toBe(""); // an image page has no text without the OCR layer
    expect([receipt[0]!.width, receipt[0]!.height]).toEqual([600, 400]);
  });

  test("the OCR text layer makes an image page searchable at the word positions", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "pdf", name: "PDF", output_format: "pdf", options: { ocr_text_layer: true } }]);
    const [receipt] = await readPdf(sink.files.get("receipt scan_1.pdf")!);
    expect(receipt!.text).toContain("Receipt TOTAL 42.00");
    expect(receipt!.text).toContain("Café"); // WinAnsi characters survive
    const word = ctx.pages[2]!.words.find((w) => w.text === "TOTAL")!;
    const item = receipt!.items.find((it) => it.str.trim().startsWith("TOTAL"))!;
    // image is 600x400 px on a 600x400 pt page: x maps 1:1, y flips at the box bottom
    expect(Math.abs(item.x - word.bounding_box[0])).toBeLessThan(1);
    expect(Math.abs(item.y - (400 - word.bounding_box[3]))).toBeLessThan(1);
    // pages that had their own text layer do not get a second copy
    const invoice = await readPdf(sink.files.get("invoice_0.pdf")!);
    expect(invoice[0]!.text).toBe("Invoice 00123 page one");
  });

  test("a recorded rotation becomes /Rotate and the text layer still lands on the un-rotated page", async () => {
    const { ctx, sink } = await buildFixture();
    ctx.pages[2]!.image_transform = { ...ctx.pages[2]!.image_transform, rotation: 90 };
    ctx.pages[0]!.image_transform = { ...ctx.pages[0]!.image_transform, rotation: 180 };
    ctx.pages[0]!.text_source = "ocr";
    await runExports(ctx, [{ id: "pdf", name: "PDF", output_format: "pdf", options: { ocr_text_layer: true } }]);
    const [receipt] = await readPdf(sink.files.get("receipt scan_1.pdf")!);
    expect(receipt!.rotate).toBe(90);
    const word = ctx.pages[2]!.words.find((w) => w.text === "TOTAL")!;
    const item = receipt!.items.find((it) => it.str.trim().startsWith("TOTAL"))!;
    expect(Math.abs(item.x - word.bounding_box[0])).toBeLessThan(1);
    const invoice = await readPdf(sink.files.get("invoice_0.pdf")!);
    expect(invoice.map((p) => p.rotate)).toEqual([180, 0]);
    // page 1 now counts as OCR'd: its words are added on top of the copied text (raster 2x the page)
    const ocrWord = invoice[0]!.items.filter((it) => it.str.trim().startsWith("Invoice"));
    expect(ocrWord.length).toBe(2);
  });

  test("pages without a usable source are embedded from the raster; unknown pages are reported", async () => {
    const { ctx, sink } = await buildFixture();
    ctx.sources = []; // sources gone: fall back to Page.render()
    ctx.results.documents[1]!.split.page_numbers = [3, 99];
    const m = await runExports(ctx, [
      { id: "pdf", name: "PDF", output_format: "pdf", options: { ocr_text_layer: true } },
    ]);
    expect(m.profiles.pdf!.status).toBe("partial");
    expect(m.profiles.pdf!.warnings).toEqual(["page 99 is not available; left out of the PDF"]);
    const invoice = await readPdf(sink.files.get("invoice_0.pdf")!);
    expect(invoice).toHaveLength(2);
    expect([invoice[0]!.width, invoice[0]!.height]).toEqual([612, 792]);
    expect(invoice[0]!.text).toBe("Invoice 00123 page one"); // rasterised page: its words come back as a text layer
    const receipt = await readPdf(sink.files.get("receipt scan_1.pdf")!);
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.text).toContain("Receipt");
  });
});

describe("PDF text layer on source pages with their own /Rotate", () => {
  test("words land where pdfjs's viewport puts the raster position, for every page rotation", async () => {
    const { PDFDocument, degrees } = await import("pdf-lib");
    const src = await PDFDocument.create();
    for (const angle of [0, 90, 180, 270]) src.addPage([612, 792]).setRotation(degrees(angle));
    const { ctx, sink } = await buildFixture();
    ctx.sources = [{ index: 0, filename: "rotated.pdf", data: await src.save(), split_policy: "inherit" }];
    ctx.pages = [0, 90, 180, 270].map((angle, i) => {
      const turned = angle % 180 === 90;
      const [w, h] = turned ? [1584, 1224] : [1224, 1584]; // raster of the page as displayed, scale 2
      return {
        ...ctx.pages[0]!,
        page_number: i + 1,
        source_file_page_number: i + 1,
        text_source: "ocr" as const,
        image_transform: { ...ctx.pages[0]!.image_transform, rasterized_width: w, rasterized_height: h, rotation: 0 },
        words: [
          {
            text: `Marker${angle}`,
            confidence: 1,
            bounding_box: [200, 360, 520, 400] as [number, number, number, number],
          },
        ],
      };
    });
    ctx.results.documents = [
      { ...ctx.results.documents[0]!, split: { ...ctx.results.documents[0]!.split, page_numbers: [1, 2, 3, 4] } },
    ];
    await runExports(ctx, [
      { id: "pdf", name: "PDF", output_format: "pdf", filename: "rot", options: { ocr_text_layer: true } },
    ]);
    const params = {
      data: new Uint8Array(sink.files.get("rot.pdf")!),
      isEvalSupported: false,
      standardFontDataUrl: FONTS,
    };
    const task = pdfjs.getDocument(params as Parameters<typeof pdfjs.getDocument>[0]);
    const doc = await task.promise;
    for (let i = 1; i <= 4; i++) {
      const page = await doc.getPage(i);
      const item = (await page.getTextContent()).items.find((it) => "str" in it && it.str.startsWith("Marker")) as {
        str: string;
        transform: number[];
      };
      expect(item.str.trim()).toBe(`Marker${(i - 1) * 90}`);
      const [vx, vy] = page.getViewport({ scale: 2 }).convertToViewportPoint(item.transform[4]!, item.transform[5]!);
      expect(Math.abs(vx! - 200)).toBeLessThan(0.5); // the text origin is the box's bottom-left corner
      expect(Math.abs(vy! - 400)).toBeLessThan(0.5);
    }
    await task.destroy();
  });
});
