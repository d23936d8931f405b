import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { createOcrEngine, rotateBox, type OcrEngine } from "../../../src/core/engines/ocr/index.ts";
import { DocprocError } from "../../../src/core/errors.ts";
import type { Page, Word } from "../../../src/core/model.ts";
import { ocrPages } from "../../../src/core/stages/ocr.ts";
import { characterErrorRate, loadRaster, OCR_TIMEOUT, pageOf, TESSERACT_TEST } from "../engines/ocr/helpers.ts";

const gold = fs.readFileSync(path.join(TESSERACT_TEST, "phototest.gold.txt"), "utf8");
let engine: OcrEngine;
let upright: Page;

beforeAll(async () => {
  engine = await createOcrEngine({ engine: "wasm", workers: 2 });
  upright = pageOf(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")), "phototest.tif");
  await ocrPages([upright], engine);
}, OCR_TIMEOUT);
afterAll(() => engine.close());

/** Pairs words of two readings of the same text by position in reading order (same text only). */
function pairWords(a: Word[], b: Word[]): Array<[Word, Word]> {
  return a.flatMap((w, i) => (b[i] && b[i].text === w.text ? [[w, b[i]] as [Word, Word]] : []));
}

describe("ocrPages on phototest and its rotated copies", () => {
  test("reads the upright page with CER ≤ 0.02, rotation 0, words in lines and a mean confidence", () => {
    expect(upright.text_source).toBe("ocr");
    expect(characterErrorRate(upright.text, gold)).toBeLessThanOrEqual(0.02);
    expect(upright.image_transform.rotation).toBe(0);
    expect(upright.text.split("\n")).toHaveLength(8);
    expect(upright.words.at(-1)!.line).toBe(8);
    expect(upright.ocr_confidence!).toBeGreaterThan(0.8);
    for (const w of upright.words) {
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
  });

  // rotation = degrees clockwise the stored image must be turned to read upright.
  const copies: Array<[string, number]> = [
    ["phototest-rotated-180.png", 180],
    ["phototest-rotated-L.png", 90],
    ["phototest-rotated-R.png", 270],
    ["phototestrot.tif", 90],
  ];
  for (const [file, rotation] of copies) {
    test(
      `detects ${file} as turned ${rotation}°, reads it with CER ≤ 0.02 and maps boxes back onto the same words`,
      async () => {
        const raster = await loadRaster(path.join(TESSERACT_TEST, file));
        const page = pageOf(raster, file);
        const report = await ocrPages([page], engine);
        expect(report.warnings).toEqual([]);
        expect(page.image_transform.rotation).toBe(rotation);
        expect(characterErrorRate(page.text, gold)).toBeLessThanOrEqual(0.02);
        // Boxes live in the stored (rotated) file's pixels; turning them by `rotation` lands on the upright page's boxes.
        const pairs = pairWords(page.words, upright.words);
        expect(pairs.length).toBeGreaterThanOrEqual(upright.words.length * 0.95);
        for (const [w, ref] of pairs) {
          const turned = rotateBox(w.bounding_box, raster.width, raster.height, rotation);
          for (let k = 0; k < 4; k++) expect(Math.abs(turned[k] - ref.bounding_box[k])).toBeLessThanOrEqual(3);
          for (const [v, max] of [
            [w.bounding_box[0], raster.width],
            [w.bounding_box[1], raster.height],
          ]) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(max);
          }
        }
      },
      OCR_TIMEOUT,
    );
  }
});

describe("ocrPages on small text", () => {
  test(
    "a page at a third of its resolution is enlarged for tesseract: CER ≤ 0.02, boxes in the small page's pixels",
    async () => {
      const { data, info } = await sharp(path.join(TESSERACT_TEST, "phototest.tif"))
        .greyscale()
        .resize({ width: 213, kernel: "lanczos3" })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const small = pageOf(
        { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 },
        "phototest-small.png",
      );
      await ocrPages([small], engine);
      // Read as it is (lines ~10 px high), tesseract loses characters: CER 0.03 measured.
      expect(characterErrorRate(small.text, gold)).toBeLessThanOrEqual(0.02);
      expect(small.image_transform.rasterized_width).toBe(213);
      const k = 213 / 640;
      const pairs = pairWords(small.words, upright.words);
      expect(pairs.length).toBeGreaterThan(small.words.length * 0.8);
      for (const [w, big] of pairs) {
        for (let i = 0; i < 4; i++)
          expect(Math.abs(w.bounding_box[i]! - big.bounding_box[i]! * k)).toBeLessThanOrEqual(2.5);
      }
    },
    OCR_TIMEOUT,
  );
});

describe("ocrPages: lines the page layout leaves out", () => {
  test(
    "the invoice number in a dotted box is read, in place, once, with its box inside the frame",
    async () => {
      const file = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data/FlipkartInvoice.png");
      const page = pageOf(await loadRaster(file), "FlipkartInvoice.png");
      await ocrPages([page], engine);
      const lines = page.text.split("\n");
      const at = lines.findIndex((l) => l.includes("BLR_WFLD20151000982590"));
      expect(at).toBeGreaterThan(0);
      expect(lines[at]).toMatch(/Invoice No/);
      expect(lines.findIndex((l) => /Sold By/.test(l))).toBe(at + 1); // between the title and "Sold By"
      const number = page.words.find((w) => w.text.includes("BLR_WFLD20151000982590"))!;
      const [x1, y1, x2, y2] = number.bounding_box; // the frame spans about x 532-762, y 45-70 of the 789 × 557 image
      expect(x1).toBeGreaterThan(600);
      expect(x2).toBeLessThan(765);
      expect(y1).toBeGreaterThan(45);
      expect(y2).toBeLessThan(72);
      expect(page.words.filter((w) => w.text.includes("BLR_WFLD")).length).toBe(1);
      expect(new Set(page.words.map((w) => w.line)).size).toBe(lines.length);
    },
    OCR_TIMEOUT,
  );
});

describe("ocrPages deskew", () => {
  test(
    "measures a 3° clockwise skew, reads the page with CER ≤ 0.02 and maps boxes into the skewed image",
    async () => {
      const skewed = await sharp(path.join(TESSERACT_TEST, "phototest.tif"))
        .rotate(3, { background: "#ffffff" })
        .greyscale()
        .png()
        .toBuffer();
      const raster = await loadRaster(skewed);
      const page = pageOf(raster, "phototest-skewed.png");
      await ocrPages([page], engine);
      expect(page.image_transform.rotation).toBe(0);
      expect(page.image_transform.skew_degrees!).toBeGreaterThan(2.5);
      expect(page.image_transform.skew_degrees!).toBeLessThan(3.5);
      expect(characterErrorRate(page.text, gold)).toBeLessThanOrEqual(0.02);
      // sharp turned the page 3° clockwise about its centre (canvas grown); each upright word centre must land in its box.
      const a = (3 * Math.PI) / 180;
      const pairs = pairWords(page.words, upright.words);
      expect(pairs.length).toBeGreaterThanOrEqual(upright.words.length * 0.95);
      for (const [w, ref] of pairs) {
        const cx = (ref.bounding_box[0] + ref.bounding_box[2]) / 2 - 320;
        const cy = (ref.bounding_box[1] + ref.bounding_box[3]) / 2 - 240;
        const x = cx * Math.cos(a) - cy * Math.sin(a) + raster.width / 2;
        const y = cx * Math.sin(a) + cy * Math.cos(a) + raster.height / 2;
        const [x1, y1, x2, y2] = w.bounding_box;
        expect(x).toBeGreaterThanOrEqual(x1 - 2);
        expect(x).toBeLessThanOrEqual(x2 + 2);
        expect(y).toBeGreaterThanOrEqual(y1 - 2);
        expect(y).toBeLessThanOrEqual(y2 + 2);
      }
    },
    OCR_TIMEOUT,
  );
});

describe("ocrPages failure handling", () => {
  test(
    "a second-look line that fails to read leaves the first reading as it was",
    async () => {
      const file = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data/FlipkartInvoice.png");
      let failed = 0;
      const flaky: OcrEngine = {
        ...engine,
        recognize: (img, opts) =>
          opts?.psm === 7
            ? (failed++, Promise.reject(new DocprocError("ocr_failed", "engine hiccup")))
            : engine.recognize(img, opts),
      };
      const page = pageOf(await loadRaster(file), "FlipkartInvoice.png");
      const report = await ocrPages([page], flaky);
      expect(failed).toBeGreaterThan(0);
      expect(report.failed).toEqual([]);
      expect(page.text_source).toBe("ocr");
      expect(page.text).toContain("Grand Total");
      expect(page.text).not.toContain("BLR_WFLD");
    },
    OCR_TIMEOUT,
  );

  test(
    "a page that cannot render becomes a warning while the other pages are still read",
    async () => {
      const broken = pageOf(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")), "broken.pdf", 1);
      broken.render = async () => {
        throw new Error("render exploded");
      };
      const blank = pageOf(
        { data: new Uint8Array(400 * 300).fill(255), width: 400, height: 300, channels: 1 },
        "blank.png",
        2,
      );
      const textLayer = pageOf({ data: new Uint8Array(4), width: 2, height: 2, channels: 1 }, "born-digital.pdf", 3);
      textLayer.text_source = "text_layer";
      const progress: Array<[number, number]> = [];
      const report = await ocrPages([broken, blank, textLayer], engine, { onPage: (d, t) => progress.push([d, t]) });
      expect(report.failed.map((f) => f.page_number)).toEqual([1]);
      expect(report.failed[0].error).toBeInstanceOf(DocprocError);
      expect(report.warnings[0]).toContain("render exploded");
      expect(broken.text_source).toBe("none");
      expect(blank.text_source).toBe("ocr");
      expect(blank.words).toEqual([]);
      expect(blank.ocr_confidence).toBeNull();
      expect(textLayer.text_source).toBe("text_layer");
      expect(progress.map(([, t]) => t)).toEqual([2, 2]);
      expect(progress.map(([d]) => d).sort()).toEqual([1, 2]);
    },
    OCR_TIMEOUT,
  );

  test("an aborted signal rejects with a DocprocError before any page is read", async () => {
    const page = pageOf(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")), "phototest.tif");
    const controller = new AbortController();
    controller.abort();
    const run = ocrPages([page], engine, { signal: controller.signal });
    await expect(run).rejects.toBeInstanceOf(DocprocError);
    expect(page.text_source).toBe("none");
  });
});
