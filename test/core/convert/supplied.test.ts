/** Supplied plain text (`documentText`) and supplied OCR data (`ocrData`) become pages with geometry. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { GlobalFonts } from "@napi-rs/canvas";
import { DocprocError } from "../../../src/core/errors.ts";
import type { OcrDataInput } from "../../../src/core/model.ts";
import { convertOcrData, convertText, renderPageToRaster } from "../../../src/core/stages/convert/index.ts";

setDefaultTimeout(30_000); // canvas rendering of an A4 page: seconds on a loaded machine

describe("convertText", () => {
  test("splits pages on form feed (a trailing one adds no page) and numbers them from firstPageNumber", () => {
    const file = convertText("Invoice 42\nTotal 10.00 EUR\fPage two\f", 7);
    expect(file.page_count).toBe(2);
    expect(file.pages.map((p) => [p.page_number, p.source_file_page_number, p.text_source])).toEqual([
      [7, 1, "supplied_text"],
      [8, 2, "supplied_text"],
    ]);
    expect(file.pages[0].text).toBe("Invoice 42\nTotal 10.00 EUR");
  });

  test("lays words out monospace on an A4 page at 300 DPI: boxes in order, inside the page, one line number per line", () => {
    const [page] = convertText("Invoice   42\nTotal 10.00", 1).pages;
    expect(page.image_transform).toMatchObject({
      rasterized_width: 2480,
      rasterized_height: 3508,
      source_unit: "point",
      effective_dpi: 300,
      rotation: 0,
    });
    expect(page.image_transform.render_scale).toBeCloseTo(300 / 72, 10);
    expect(page.words.map((w) => [w.text, w.line])).toEqual([
      ["Invoice", 1],
      ["42", 1],
      ["Total", 2],
      ["10.00", 2],
    ]);
    const [invoice, fortyTwo, total] = page.words.map((w) => w.bounding_box);
    // Columns are kept: "42" starts 10 characters after "Invoice", as many as "Total" + 5 characters.
    const advance = (invoice[2] - invoice[0]) / 7;
    expect(fortyTwo[0] - invoice[0]).toBeCloseTo(10 * advance, 5);
    expect(total[1]).toBeGreaterThan(invoice[3] - 1);
    for (const w of page.words) {
      expect(w.bounding_box[0]).toBeGreaterThanOrEqual(0);
      expect(w.bounding_box[2]).toBeLessThanOrEqual(2480);
      expect(w.confidence).toBe(1);
    }
    expect(page.ocr_confidence).toBe(1);
  });

  test("a line too long for the page shrinks the layout so every box stays on the page", () => {
    const [page] = convertText("x".repeat(300) + " end", 1).pages;
    expect(Math.max(...page.words.map((w) => w.bounding_box[2]))).toBeLessThanOrEqual(2480);
  });

  test("render() draws the text so image exports have something to show", async () => {
    const [page] = convertText("HELLO WORLD", 1).pages;
    const grey = await renderPageToRaster(page, { grayscale: true });
    expect([grey.width, grey.height, grey.channels]).toEqual([2480, 3508, 1]);
    const [x1, y1, x2, y2] = page.words[0].bounding_box.map(Math.round);
    let dark = 0;
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) if (grey.data[y * grey.width + x] < 128) dark++;
    expect(grey.data[5]).toBe(255); // white margin
    // Drawing text needs a system font; without any, the page stays blank (its words and boxes are unaffected).
    if (GlobalFonts.families.length > 0) expect(dark).toBeGreaterThan(0);
  });
});

describe("convertOcrData", () => {
  const data: OcrDataInput = {
    filename: "scan-ocr.json",
    pages: [
      {
        width: 1000,
        height: 1400,
        dpi: 200,
        rotation: 90,
        words: [
          { text: "Total", bbox: [100, 300, 180, 330], confidence: 0.9 },
          { text: "Invoice", bbox: [100, 100, 220, 130], confidence: 0.8 },
          { text: "12.50", bbox: [400, 302, 480, 332] },
        ],
      },
      { width: 800, height: 600, words: [] },
    ],
  };

  test("keeps boxes in the page's pixel space, orders words into lines and reports dpi and rotation", () => {
    const file = convertOcrData(data, 3);
    expect(file.filename).toBe("scan-ocr.json");
    const [first, second] = file.pages;
    expect(first).toMatchObject({ page_number: 3, text_source: "supplied_ocr", text: "Invoice\nTotal 12.50" });
    expect(first.image_transform).toEqual({
      rasterized_width: 1000,
      rasterized_height: 1400,
      source_width: 1000,
      source_height: 1400,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: 200,
      coordinate_system: "top-left-origin",
      rotation: 90,
    });
    expect(first.words.map((w) => [w.text, w.line, w.confidence])).toEqual([
      ["Invoice", 1, 0.8],
      ["Total", 2, 0.9],
      ["12.50", 2, 1],
    ]);
    expect(first.ocr_confidence).toBeCloseTo(0.9, 4);
    expect(second).toMatchObject({ page_number: 4, text: "", ocr_confidence: null });
    expect(second.image_transform.effective_dpi).toBeNull();
  });

  test("rejects malformed OCR data with `invalid_input` listing every problem", () => {
    const bad = { pages: [{ width: -5, height: 100, words: [{ text: "", bbox: [10, 10, 5, 5], confidence: 7 }] }] };
    let err: unknown;
    try {
      convertOcrData(bad as unknown as OcrDataInput, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocprocError);
    const problems = (err as DocprocError).details!.problems as string[];
    expect((err as DocprocError).code).toBe("invalid_input");
    expect(problems.some((p) => p.startsWith("pages.0.width"))).toBe(true);
    expect(problems.some((p) => p.startsWith("pages.0.words.0.text"))).toBe(true);
    expect(problems.some((p) => p.startsWith("pages.0.words.0.bbox"))).toBe(true);
    expect(problems.some((p) => p.startsWith("pages.0.words.0.confidence"))).toBe(true);
    expect(() => convertOcrData({ pages: [] }, 1)).toThrow(DocprocError);
  });
});
