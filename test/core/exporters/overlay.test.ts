/**
 * Coordinate rules 2 and 3: field boxes from the JSON export overlay the exported JPG of a rotated scan, in
 * Original and in Corrected orientation. The page goes through the real OCR stage (`ocrPages`: orientation
 * detection, boxes mapped back to the scan as rasterized); the check crops each exported JPG at the field box and
 * reads the crop back with OCR.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import sharp from "sharp";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr";
import { ocrPages } from "../../../src/core/stages/ocr";
import { runExports } from "../../../src/core/exporters";
import type { Box, Page, ResultsFile } from "../../../src/core/model";
import { toResultsPage } from "../../../src/core/results";
import { memorySink } from "../../../src/core/exporters";
import { field } from "./fixtures";

const SCAN = path.resolve(import.meta.dir, "../../../fixtures/corpora/ocr-text/tesseract-test/phototest-rotated-R.png");
const ROTATION = 270; // the scan reads upright after a 270° clockwise turn
const PHRASE = ["This", "is", "a", "lot"];

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "wasm", workers: 1 });
});
afterAll(() => engine?.close());

async function ocrText(jpeg: Uint8Array, box: Box, turn: number): Promise<string> {
  const [x1, y1, x2, y2] = box.map(Math.round) as Box;
  const { data, info } = await sharp(jpeg)
    .extract({ left: x1, top: y1, width: x2 - x1, height: y2 - y1 })
    .rotate(turn)
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: "#fff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const result = await engine.recognize(
    { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 },
    { psm: 7 },
  );
  return result.text.replace(/\s+/g, " ").trim();
}

function union(boxes: Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

async function buildRotatedScan(): Promise<{ page: Page; results: ResultsFile }> {
  const { data, info } = await sharp(SCAN).greyscale().raw().toBuffer({ resolveWithObject: true });
  const page: Page = {
    page_number: 1,
    source_file_index: 0,
    source_filename: "phototest-rotated-R.png",
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
    render: async () => ({ data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 }),
  };
  const report = await ocrPages([page], engine);
  expect(report.failed).toEqual([]);
  expect(page.image_transform.rotation).toBe(ROTATION);
  const phrase = PHRASE.map((t) => page.words.find((w) => w.text === t)!);
  expect(phrase.every(Boolean)).toBe(true);
  const results: ResultsFile = {
    transaction_id: "tx-rot",
    tenant_id: "t",
    project_id: "p",
    transaction: {
      exported_at: "",
      created_at: "",
      source_file_names: [page.source_filename],
      project_version: 1,
      correlation_id: null,
      source: "cli",
      metadata: {},
      last_human_review: { reviewed: false },
    },
    validation: { overall_status: "success", transaction_rule_results: [] },
    documents: [
      {
        document_id: "d1",
        document_index: 0,
        document_type: "letter",
        classification_confidence: 1,
        classification: {
          class_id: "letter",
          type: "letter",
          confidence: 1,
          reasoning: "",
          alternatives: [],
          confirmed: null,
          review_required: false,
        },
        split: {
          mode: "single",
          policy: "inherit",
          confidence: 1,
          reason: "",
          review_required: false,
          page_numbers: [1],
          source_file_indexes: [0],
        },
        fields: {
          opening: field("Opening", PHRASE.join(" "), [
            { coordinates: union(phrase.map((w) => w.bounding_box)), page_index: 1 },
          ]),
        },
      },
    ],
    pages: [toResultsPage(page, true)],
  };
  return { page, results };
}

describe("field boxes overlay the exported JPG of a rotated scan", () => {
  test("Original and Corrected: cropping the JPG at the JSON box reads the field's words", async () => {
    const { page, results } = await buildRotatedScan();
    const sink = memorySink();
    await runExports({ results, pages: [page], sources: [], sink }, [
      { id: "json-o", name: "o", output_format: "json", filename: "original.json" },
      {
        id: "json-c",
        name: "c",
        output_format: "json",
        filename: "corrected.json",
        options: { orientation: "corrected" },
      },
      { id: "jpg-o", name: "o", output_format: "jpg", filename: "original" },
      {
        id: "jpg-c",
        name: "c",
        output_format: "jpg",
        filename: "corrected",
        options: { orientation: "corrected", quality: 95 },
      },
    ]);
    const json = (name: string) => JSON.parse(new TextDecoder().decode(sink.files.get(name)!));
    const original = json("original.json");
    const corrected = json("corrected.json");
    const boxO: Box = original.documents[0].fields.opening.bounding_boxes[0].coordinates;
    const boxC: Box = corrected.documents[0].fields.opening.bounding_boxes[0].coordinates;
    expect(corrected.orientation).toBe("corrected");
    expect(boxC).not.toEqual(boxO);

    const jpgO = sink.files.get("original_page_1.jpg")!;
    const jpgC = sink.files.get("corrected_page_1.jpg")!;
    const metaC = await sharp(jpgC).metadata();
    expect([metaC.width, metaC.height]).toEqual([
      corrected.pages[0].image_transform.rasterized_width,
      corrected.pages[0].image_transform.rasterized_height,
    ]);

    // Original: the box is on the un-rotated scan; the reader applies `rotation` to read the crop.
    expect(await ocrText(jpgO, boxO, ROTATION)).toBe(PHRASE.join(" "));
    // Corrected: the box is on the upright JPG and reads as it is.
    expect(await ocrText(jpgC, boxC, 0)).toBe(PHRASE.join(" "));
    // A box used with the wrong orientation misses the words.
    const [w, h] = [metaC.width!, metaC.height!];
    const wrong = boxO.map((v, i) => Math.min(v, i % 2 === 0 ? w : h)) as Box;
    const wrongText = wrong[2] - wrong[0] > 4 && wrong[3] - wrong[1] > 4 ? await ocrText(jpgC, wrong, 0) : "";
    expect(wrongText).not.toContain("This is a lot");
  }, 60_000);
});
