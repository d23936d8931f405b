/**
 * A real scan lying on its side: invoice2data's SammyMaystone PNG turned 90° with sharp, through the real conversion
 * and OCR stages (which find the orientation and map boxes back to the un-rotated raster). Extraction reasons on
 * the upright page and must read the same values as from the upright scan; boxes stay on the un-rotated raster.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import sharp from "sharp";
import type { Box } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { convertSource } from "../../../src/core/stages/convert";
import { ocrPages } from "../../../src/core/stages/ocr";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";

const PNG = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data/SammyMaystoneLinesTest.png");

describe("extraction from a rotated scan", () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "auto", workers: 1 });
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });

  test("a scan turned 90° reads like the upright one, with boxes on the un-rotated raster", async () => {
    const data = new Uint8Array(await sharp(PNG).rotate(90).png().toBuffer());
    const converted = await convertSource(
      { index: 0, filename: "sideways.png", data, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    await ocrPages(converted.pages, engine, {});
    const page = converted.pages[0]!;
    expect(page.image_transform.rotation).toBe(270);
    const cls = classifyDocument(converted.pages, defaultProject);
    expect(cls.class_id).toBe("invoice");
    const f = extractFields(converted.pages, cls.class_id, defaultProject);
    expect(f.invoice_number!.value).toBe("invoice_number_1");
    expect(f.invoice_date!.value).toBe("2022-01-01");
    expect(f.due_date!.value).toBe("2022-01-31");
    expect(f.total_amount!.value).toBe(127.5);
    expect(f.currency!.value).toBe("USD");
    expect((f.line_items!.value as unknown[]).length).toBe(2);
    // Boxes are unions of OCR words on the rasterized (sideways) page: taller than wide for a one-line value.
    const { rasterized_width: w, rasterized_height: h } = page.image_transform;
    const box = f.total_amount!.bounding_boxes[0]!.coordinates as Box;
    expect(box[2] <= w && box[3] <= h).toBe(true);
    expect(box[3] - box[1]).toBeGreaterThan(box[2] - box[0]);
    await converted.close();
  }, 120_000);
});
