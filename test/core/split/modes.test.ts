/**
 * The project split modes one by one (per file, per page, fixed N, separator sheets incl. blank pages), blank and
 * barcode detection on real rasters, the settings schema and the `split` object of the results file.
 */
import { describe, expect, test } from "bun:test";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { DocumentSpan, RasterImage } from "../../../src/core/model";
import { detectBarcodes } from "../../../src/core/split/barcodes";
import { SplitSettingsSchema, type SplitSettingsInput } from "../../../src/core/project/split";
import { splitInfoOf, splitPages } from "../../../src/core/stages/split";
import { CORPORA, convertFile, invoicePage, textFiles } from "./helpers";

const settings = (s: SplitSettingsInput) => SplitSettingsSchema.parse(s);
const groups = (spans: DocumentSpan[]) => spans.map((s) => s.page_numbers);
const threeFiles = () =>
  textFiles([
    { policy: "inherit", pages: ["a1", "a2"] },
    { policy: "inherit", pages: ["b1"] },
    { policy: "inherit", pages: ["c1", "c2", "c3"] },
  ]);

/** A PDF whose pages are either text ("T:<text>"), truly blank (""), or blank but for a speck of dust ("."). */
async function pdfOf(kinds: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const kind of kinds) {
    const page = doc.addPage([595, 842]);
    if (kind === ".") page.drawRectangle({ x: 300, y: 400, width: 1.5, height: 1.5, color: rgb(0, 0, 0) });
    else if (kind.startsWith("T:")) page.drawText(kind.slice(2), { x: 72, y: 760, size: 14, font });
  }
  return doc.save();
}

describe("deterministic split modes", () => {
  test("per_file makes one document per source file with confidence 1.0", async () => {
    const spans = await splitPages(threeFiles(), settings({ mode: "per_file" }));
    expect(groups(spans)).toEqual([[1, 2], [3], [4, 5, 6]]);
    expect(spans.every((s) => s.confidence === 1)).toBe(true);
  });

  test("per_page makes one document per page", async () => {
    expect(groups(await splitPages(threeFiles(), settings({ mode: "per_page" })))).toEqual([
      [1],
      [2],
      [3],
      [4],
      [5],
      [6],
    ]);
  });

  test("fixed_pages cuts every N pages across inherit files, the last document shorter", async () => {
    const spans = await splitPages(threeFiles(), settings({ mode: "fixed_pages", pages_per_document: 4 }));
    expect(groups(spans)).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
    expect(spans[0].reason).toBe("fixed 4 pages per document");
  });

  test("files without pages produce no documents", async () => {
    const files = textFiles([
      { policy: "single_document", pages: [] },
      { policy: "inherit", pages: ["x"] },
    ]);
    expect(groups(await splitPages(files, settings({ mode: "per_file" })))).toEqual([[1]]);
  });
});

describe("blank pages as separators (real rasters)", () => {
  // Text lines long enough (≥ 20 letters) for conversion to keep them as a text layer.
  const kinds = [
    "T:Letter number one to Alice",
    "",
    "T:Letter number two to Bob",
    "T:Letter number two, page 2",
    ".",
    "",
    "T:Letter number three to Carol",
  ];

  test("blank and dust-only pages separate documents and are dropped", async () => {
    const pdf = await convertFile(await pdfOf(kinds), { maxSidePx: 900 });
    try {
      const spans = await splitPages(
        [{ index: 0, filename: "blank.pdf", policy: "inherit", pages: pdf.pages }],
        settings({ mode: "separator", separator: { blank_pages: true } }),
      );
      expect(groups(spans)).toEqual([[1], [3, 4], [7]]);
      expect(spans.map((s) => s.separator_pages)).toEqual([undefined, [2], [5, 6]]);
      expect(pdf.pages.map((p) => p.is_blank)).toEqual([false, true, false, false, true, true, false]);
      expect(spans[1].reason).toContain("blank page 2");
    } finally {
      await pdf.close();
    }
  }, 30_000);

  test("with keep_separator the blank page becomes the first page of the next document", async () => {
    const pdf = await convertFile(await pdfOf(["T:The first of two letters", "", "T:The second of two letters"]), {
      maxSidePx: 900,
    });
    try {
      const spans = await splitPages(
        [{ index: 0, filename: "b.pdf", policy: "inherit", pages: pdf.pages }],
        settings({ mode: "separator", separator: { blank_pages: true, keep_separator: true } }),
      );
      expect(groups(spans)).toEqual([[1], [2, 3]]);
    } finally {
      await pdf.close();
    }
  }, 30_000);

  test("intelligent mode keeps a blank page inside a document but drops it at a boundary", async () => {
    const a = (page: number) =>
      `T:${invoicePage({ vendor: "Alpha", number: "A-1", page, of: 2 }).replace(/\n/g, " | ")}`;
    const b = `T:${invoicePage({ vendor: "Beta", number: "B-2", page: 1, of: 1 }).replace(/\n/g, " | ")}`;
    const pdf = await convertFile(await pdfOf([a(1), "", a(2), "", b]), { maxSidePx: 900 });
    try {
      const spans = await splitPages(
        [{ index: 0, filename: "i.pdf", policy: "inherit", pages: pdf.pages }],
        settings({ mode: "intelligent" }),
      );
      expect(groups(spans)).toEqual([[1, 2, 3], [5]]);
      expect(spans[1].separator_pages).toEqual([4]);
    } finally {
      await pdf.close();
    }
  }, 30_000);
});

describe("rendering only when needed", () => {
  test("intelligent mode does not render born-digital text pages to look for PATCH-T, separator mode with rules does", async () => {
    const [file] = textFiles([{ policy: "inherit", pages: ["x".repeat(500), "short"] }]);
    let renders = 0;
    const white: RasterImage = { data: new Uint8Array(300 * 400).fill(255), width: 300, height: 400, channels: 1 };
    const fresh = () =>
      file.pages.map((p) => ({ ...p, text_source: "text_layer" as const, render: async () => (renders++, white) }));
    await splitPages([{ ...file, pages: fresh() }], settings({ mode: "intelligent" }));
    expect(renders).toBe(1); // only the page with little text
    renders = 0;
    await splitPages(
      [{ ...file, pages: fresh() }],
      settings({ mode: "separator", separator: { barcodes: [{ value: "X" }] } }),
    );
    expect(renders).toBe(2);
    renders = 0;
    await splitPages([{ ...file, pages: fresh() }], settings({ mode: "per_page" }));
    expect(renders).toBe(0);
  });

  test("a sparse born-digital page is rendered for PATCH-T only when it paints an image; OCR text rules a page out too", async () => {
    const [file] = textFiles([{ policy: "inherit", pages: ["short", "short too", "x".repeat(500)] }]);
    let renders = 0;
    const white: RasterImage = { data: new Uint8Array(300 * 400).fill(255), width: 300, height: 400, channels: 1 };
    const pages = file.pages.map((p, i) => ({
      ...p,
      text_source: i < 2 ? ("text_layer" as const) : ("ocr" as const),
      paints_images: i === 1,
      render: async () => (renders++, white),
    }));
    await splitPages([{ ...file, pages }], settings({ mode: "intelligent" }));
    expect(renders).toBe(1);
    expect(pages.map((p) => p.barcodes)).toEqual([undefined, [], undefined]);
    expect(pages.map((p) => p.is_blank)).toEqual([false, false, false]);
  });

  test("PDF conversion tells which sparse text pages paint images", async () => {
    // patch-code-t-middle.pdf: text page, scanned PATCH-T sheet (no text layer), text page.
    const pdf = await convertFile(`${CORPORA}splitting/paperless-barcodes/patch-code-t-middle.pdf`);
    const tagged = await convertFile(`${CORPORA}splitting/paperless-barcodes/split-by-tag-basic.pdf`);
    try {
      expect(pdf.pages.map((p) => [p.text_source, p.paints_images])).toEqual([
        ["text_layer", false],
        ["none", undefined],
        ["text_layer", false],
      ]);
      // Pages 2 and 4 carry a barcode image next to their text.
      expect(tagged.pages.map((p) => p.paints_images)).toEqual([false, true, false, true, false, false]);
    } finally {
      await pdf.close();
      await tagged.close();
    }
  }, 30_000);
});

describe("barcode detection", () => {
  test("reads a Code 39 turned by 90° and maps its box back onto the page", async () => {
    const pdf = await convertFile(`${CORPORA}splitting/paperless-barcodes/barcode-39-custom.pdf`, { maxSidePx: 1754 });
    try {
      const upright = await pdf.pages[0].render!();
      const [found] = detectBarcodes(upright);
      expect(found.value).toBe("CUSTOM BARCODE");
      const turned = rotate90(upright);
      const [again] = detectBarcodes(turned);
      expect(again).toMatchObject({ format: "code39", value: "CUSTOM BARCODE" });
      // The box on the turned raster covers the turned position of the upright box's centre.
      const [x1, y1, x2, y2] = found.bounding_box!;
      const cx = (x1 + x2) / 2;
      const cy = (y1 + y2) / 2;
      const [tx, ty] = [upright.height - 1 - cy, cx];
      const [u1, v1, u2, v2] = again.bounding_box!;
      expect(tx).toBeGreaterThanOrEqual(u1);
      expect(tx).toBeLessThanOrEqual(u2);
      expect(ty).toBeGreaterThanOrEqual(v1);
      expect(ty).toBeLessThanOrEqual(v2);
    } finally {
      await pdf.close();
    }
  }, 30_000);

  test("finds nothing on a page without codes and survives degenerate rasters", () => {
    const white: RasterImage = { data: new Uint8Array(400 * 500).fill(255), width: 400, height: 500, channels: 1 };
    expect(detectBarcodes(white)).toEqual([]);
    expect(detectBarcodes({ data: new Uint8Array(3), width: 1, height: 1, channels: 3 })).toEqual([]);
  });
});

describe("settings and the results `split` object", () => {
  test("defaults are complete and invalid settings list every problem", () => {
    const s = SplitSettingsSchema.parse({});
    expect(s).toMatchObject({
      enabled: true,
      mode: "intelligent",
      separator: { patch_t: true, keep_separator: false },
    });
    const bad = SplitSettingsSchema.safeParse({
      mode: "by_magic",
      pages_per_document: 0,
      separator: { barcodes: [{ pattern: "(" }, { keep: true }] },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual([
      "mode",
      "pages_per_document",
      "separator.barcodes.0.pattern",
      "separator.barcodes.1",
    ]);
  });

  test("splitInfoOf reports mode, policy, confidence, review flag, pages, files and dropped separators", async () => {
    const files = textFiles([
      { policy: "inherit", pages: ["x", "y"] },
      { policy: "inherit", pages: ["z"] },
    ]);
    const s = settings({ mode: "fixed_pages", pages_per_document: 3 });
    const [span] = await splitPages(files, s);
    expect(splitInfoOf({ ...span, separator_pages: [9] }, s, files, 0.7)).toEqual({
      mode: "fixed_pages",
      policy: "inherit",
      confidence: 1,
      reason: "fixed 3 pages per document",
      review_required: false,
      page_numbers: [1, 2, 3],
      source_file_indexes: [0, 1],
      separator_pages: [9],
    });
    expect(splitInfoOf(span, settings({ enabled: false }), files, 0.7).mode).toBe("disabled");
    expect(splitInfoOf({ ...span, confidence: 0.65 }, s, files, 0.7).review_required).toBe(true);
  });
});

function rotate90(img: RasterImage): RasterImage {
  const { width: w, height: h, channels: c } = img;
  const out = new Uint8Array(img.data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = (y * w + x) * c;
      const dst = (x * h + (h - 1 - y)) * c;
      for (let k = 0; k < c; k++) out[dst + k] = img.data[src + k];
    }
  }
  return { data: out, width: h, height: w, channels: c };
}
