/**
 * Blocks whose rows tesseract ran into the block beside them, read again on their own (stages/ocr/block-reread.ts,
 * engines/ocr/crossed-blocks.ts). Generated letterhead invoices (fixtures/einvoice-visual: the buyer's address window
 * beside the details column, 10 pt rows beside 9 pt rows a third of a line apart), scanned at 200 DPI with a small
 * skew like the accuracy gate's scans, read by the real OCR stage: the buyer's name comes back as a line of its own.
 * Without the re-read these three read "rods ie Mannheim", "Chan rke Göttingen" and "a an Sniaus ae ADDEN" (lines two
 * rows tall across both blocks), the name never a line of its own. On word boxes: which blocks are read again, and when the new reading replaces the old.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { visualInvoices, visualPdf } from "../../../../fixtures/einvoice-visual";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { crossedBlocks, replaceBlock } from "../../../../src/core/engines/ocr/crossed-blocks.ts";
import type { OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import { editDistance } from "../../../../src/core/extract/fuzzy";
import { pageLines } from "../../../../src/core/extract/lines";
import type { Box, Word } from "../../../../src/core/model.ts";
import { convertSource } from "../../../../src/core/stages/convert";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { scanOf, skewOf } from "../../../accuracy/scans";

const IDS = ["cii-br-de-10-test", "cii-br-de-16-negative-tests-bt-95-bt-151", "ubl-inv-peppol-en16931-r040-charge"];

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 2 });
});
afterAll(() => engine.close());

describe("an address window beside a details column on a scan", () => {
  for (const id of IDS) {
    test(`letterhead ${id}: the buyer's name is a line of its own`, async () => {
      const doc = visualInvoices("letterhead").find((d) => d.id === id)!;
      const name = `letterhead-${id}.pdf`;
      const scan = await scanOf(await visualPdf(doc), name, { dpi: 200, angle: skewOf(name), quality: 60 });
      const converted = await convertSource(
        { index: 0, filename: name, data: new Uint8Array(readFileSync(scan)), split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      );
      try {
        await ocrPages(converted.pages, engine);
        const lines = pageLines(converted.pages[0]!).map((l) => l.text.replace(/[\s:;.,|'"-]+$/, ""));
        // Within three edits: an English reading of "für" may come back "fiir", as on the page read upright.
        const truth = String(doc.truth.customer_name);
        const close = lines.filter((l) => editDistance(l, truth, 3) <= 3);
        expect({ truth, close: close.length > 0 }).toEqual({ truth, close: true });
      } finally {
        await converted.close();
      }
    }, 180_000);
  }
});

const word = (text: string, line: number, box: Box, confidence = 0.9): Word => ({
  text,
  line,
  confidence,
  bounding_box: box,
});

/**
 * An address block (x 100-400) and a details column (x 1000-1400) whose rows stand 20 px (two thirds of its 30 px type)
 * higher; the first reading ran rows across.
 */
function crossedPage(nameConfidence: number, tall: boolean): Word[] {
  const nameBottom = tall ? 190 : 130;
  return [
    word("Landesamt", 1, [100, 100, 260, nameBottom], nameConfidence),
    word("Mannheim", 1, [275, 100, 400, 130], nameConfidence),
    word("Invoice", 1, [1000, 80, 1100, 110]),
    word("number:", 1, [1110, 80, 1210, 110]),
    word("Goethestraße", 2, [100, 150, 290, 180]),
    word("82", 2, [300, 150, 340, 180]),
    word("Invoice", 2, [1000, 130, 1100, 160]),
    word("date:", 2, [1110, 130, 1180, 160]),
    word("12345", 3, [100, 200, 190, 230]),
    word("Mannheim", 3, [200, 200, 330, 230]),
    word("Customer", 3, [1000, 180, 1130, 210]),
    word("no.:", 3, [1140, 180, 1200, 210]),
  ];
}

const result = (words: Word[]): OcrResult => ({ words, text: "", confidence: 0.9 });

describe("crossed blocks on word boxes", () => {
  test("a crossed block read with doubt is read again, its neighbour read surely is not", () => {
    const boxes = crossedBlocks(crossedPage(0.3, false), 2000, 3000);
    expect(boxes.length).toBe(1);
    const [x1, y1, x2, y2] = boxes[0]!;
    expect(x1).toBeLessThanOrEqual(100);
    expect(x2).toBeGreaterThanOrEqual(400);
    expect(x2).toBeLessThan(1000);
    expect([y1 <= 100, y2 >= 230]).toEqual([true, true]);
  });

  test("a confident reading whose words stand two rows tall is read again; a clean one is not", () => {
    expect(crossedBlocks(crossedPage(0.95, true), 2000, 3000).length).toBe(1);
    expect(crossedBlocks(crossedPage(0.95, false), 2000, 3000)).toEqual([]);
  });

  test("a label column and its values on the same rows are lines rightly found, however doubtful", () => {
    const level = crossedPage(0.3, false).map((w) =>
      w.bounding_box[0] >= 1000
        ? {
            ...w,
            bounding_box: [w.bounding_box[0], w.bounding_box[1] + 20, w.bounding_box[2], w.bounding_box[3] + 20] as Box,
          }
        : w,
    );
    expect(crossedBlocks(level, 2000, 3000)).toEqual([]);
  });

  test("blocks whose rows share lines only a word space apart are one block, never crossed", () => {
    const near = crossedPage(0.3, false).map((w) =>
      w.bounding_box[0] >= 1000
        ? {
            ...w,
            bounding_box: [
              w.bounding_box[0] - 560,
              w.bounding_box[1],
              w.bounding_box[2] - 560,
              w.bounding_box[3],
            ] as Box,
          }
        : w,
    );
    expect(crossedBlocks(near, 2000, 3000)).toEqual([]);
  });

  test("the new reading replaces the block's words in lines of their own, the neighbour's words stay", () => {
    const page = crossedPage(0.95, true);
    const box: Box = [85, 85, 415, 245];
    const read = result([
      word("Landesamt", 1, [15, 15, 175, 45], 0.93),
      word("Mannheim", 1, [190, 15, 315, 45], 0.93),
      word("Goethestraße", 2, [15, 65, 205, 95], 0.93),
      word("82", 2, [215, 65, 255, 95], 0.93),
      word("12345", 3, [15, 115, 105, 145], 0.93),
      word("Mannheim", 3, [115, 115, 245, 145], 0.93),
    ]);
    const out = replaceBlock(result(page), box, read);
    const lines = new Map<number, string[]>();
    for (const w of out.words) lines.set(w.line!, [...(lines.get(w.line!) ?? []), w.text]);
    const texts = [...lines.values()].map((l) => l.join(" "));
    expect(texts).toContain("Landesamt Mannheim");
    expect(texts).toContain("Invoice number:");
    expect(out.words.find((w) => w.text === "Landesamt")!.bounding_box).toEqual([100, 100, 260, 130]);
    // A reading less sure of itself than clean words it would replace is not taken.
    const clean = crossedPage(0.95, false);
    const doubtful = result(read.words.map((w) => ({ ...w, confidence: 0.6 })));
    expect(replaceBlock(result(clean), box, doubtful).words).toEqual(clean);
  });
});
