/**
 * A scanned PDF page is read at the scan's own resolution (engines/pdf/pdf-scan-image.ts): a 200-DPI bilevel scan is
 * handed to tesseract as it is, not enlarged to 300 DPI without smoothing, and its words land in the page's
 * rasterized (300-DPI) space all the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from "pdf-lib";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr/index.ts";
import type { Page, RasterImage } from "../../../src/core/model.ts";
import { convertSource, type ConvertedSource } from "../../../src/core/stages/convert/index.ts";
import { ocrPages } from "../../../src/core/stages/ocr.ts";
import {
  characterErrorRate,
  loadRaster,
  OCR_TIMEOUT,
  pageOf as helperPageOf,
  TESSERACT_TEST,
} from "../engines/ocr/helpers.ts";

const gold = fs.readFileSync(path.join(TESSERACT_TEST, "phototest.gold.txt"), "utf8");
let engine: OcrEngine;
let bits: { data: Uint8Array; width: number; height: number };
const open: ConvertedSource[] = [];

/** phototest.tif (640 × 480, 1 bit) packed as PDF image rows: byte-aligned, a set bit is white (DeviceGray). */
async function phototestBits() {
  const { data, info } = await sharp(path.join(TESSERACT_TEST, "phototest.tif"))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rowBytes = (info.width + 7) >> 3;
  const packed = new Uint8Array(rowBytes * info.height);
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! >= 128) packed[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  return { data: packed, width: info.width, height: info.height };
}

/** The same image with 8 bits a pixel (a grey scan). */
function greyBytes(): Uint8Array {
  const out = new Uint8Array(bits.width * bits.height);
  for (let i = 0; i < out.length; i++) {
    const [y, x] = [Math.floor(i / bits.width), i % bits.width];
    out[i] = bits.data[y * 80 + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
  }
  return out;
}

/** A one-page PDF that paints the image over the whole page at `dpi` (and some text when `withText`). */
async function scanPdf(dpi: number, withText = false, grey = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const w = (bits.width * 72) / dpi;
  const h = (bits.height * 72) / dpi;
  const page = doc.addPage([w, h]);
  const image = doc.context.register(
    doc.context.flateStream(grey ? greyBytes() : bits.data, {
      Type: "XObject",
      Subtype: "Image",
      Width: bits.width,
      Height: bits.height,
      BitsPerComponent: grey ? 8 : 1,
      ColorSpace: "DeviceGray",
    }),
  );
  page.node.setXObject(PDFName.of("Scan"), image);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(w, 0, 0, h, 0, 0), drawObject("Scan"));
  page.pushOperators(popGraphicsState());
  if (withText) page.drawText("x", { x: 2, y: 2, size: 4, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

async function pageOf(pdf: Uint8Array): Promise<Page> {
  const file = await convertSource(
    { index: 0, filename: "scan.pdf", data: pdf, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: null },
  );
  open.push(file);
  return file.pages[0]!;
}

const render = (page: Page, scan: boolean) =>
  (page.render as (o: object) => Promise<RasterImage>)({ grayscale: true, scan });

beforeAll(async () => {
  bits = await phototestBits();
  engine = await createOcrEngine({ engine: "wasm", workers: 1 });
}, OCR_TIMEOUT);
afterAll(async () => {
  await Promise.all(open.map((f) => f.close()));
  await engine.close();
});

describe("scanned PDF pages at their own resolution", () => {
  test("a 200-DPI bilevel page comes back as its 640 × 480 image for reading, at 300 DPI otherwise", async () => {
    const page = await pageOf(await scanPdf(200));
    expect(page.image_transform.rasterized_width).toBe(960);
    const own = await render(page, true);
    expect([own.width, own.height, own.channels]).toEqual([640, 480, 1]);
    // The source's own pixels, unchanged: black where phototest is black, white elsewhere.
    let differ = 0;
    for (let y = 0; y < 480; y++)
      for (let x = 0; x < 640; x++) {
        const white = (bits.data[y * 80 + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
        if (own.data[y * 640 + x] !== (white ? 255 : 0)) differ++;
      }
    expect(differ).toBe(0);
    expect(own.data.filter((v) => v === 0).length).toBeGreaterThan(5000);
    const full = await render(page, false);
    expect([full.width, full.height]).toEqual([960, 720]);
  });

  test(
    "reads the text and puts the words in the page's 300-DPI space",
    async () => {
      const page = await pageOf(await scanPdf(200));
      const report = await ocrPages([page], engine);
      expect(report.failed).toEqual([]);
      expect(characterErrorRate(page.text, gold)).toBeLessThanOrEqual(0.02);
      // The same reading as of the image file itself, each box × 1.5 (200 → 300 DPI).
      const direct = helperPageOf(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")), "phototest.tif");
      await ocrPages([direct], engine);
      expect(page.text).toBe(direct.text);
      page.words.forEach((w, i) => {
        const scaled = direct.words[i]!.bounding_box.map((v) => v * 1.5);
        for (const [k, v] of w.bounding_box.entries()) expect(Math.abs(v - scaled[k]!)).toBeLessThanOrEqual(1);
      });
    },
    OCR_TIMEOUT,
  );

  test("a low-resolution scan, a page with more than the image, a grey scan are drawn at the page's size", async () => {
    const low = await pageOf(await scanPdf(100));
    expect((await render(low, true)).width).toBe(low.image_transform.rasterized_width);
    const mixed = await pageOf(await scanPdf(200, true));
    expect((await render(mixed, true)).width).toBe(mixed.image_transform.rasterized_width);
    // A grey scan is drawn as before (read at its own 200 DPI, the accuracy gate's JPEG scans lost an invoice number).
    const grey = await pageOf(await scanPdf(200, false, true));
    expect((await render(grey, true)).width).toBe(960);
  });
});
