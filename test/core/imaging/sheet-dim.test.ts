/**
 * Dim phone photos of short receipts (the receipts-hard conditions: faded print, low light, a fold, paper not
 * flat): the frame shows no line of text at all, and the squared sheet is wider than a till roll in line heights.
 * The OCR stage reads the squared sheet as one block of lines then (stages/ocr/geometry.ts): the total is read.
 * Receipts of seeds the accuracy gate does not use.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { toPdf } from "../../../fixtures/varied/generator";
import { euSupermarket, fuelStation } from "../../../fixtures/varied/generator/hard-receipt-kinds";
import { makeHardReceipt } from "../../../fixtures/varied/generator/hard-receipts";
import { Rng } from "../../../fixtures/varied/generator/random";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr/index.ts";
import { ocrPages } from "../../../src/core/stages/ocr/index.ts";
import { photoOf } from "../../accuracy/photos.ts";
import { loadRaster, OCR_TIMEOUT, pageOf } from "../engines/ocr/helpers.ts";

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine({ engine: "auto", workers: 2 });
});
afterAll(() => engine.close());

// Seed 4's supermarket receipt squares up 57 line heights wide (a till roll is at most 56); the fuel receipts are
// narrower and read as till rolls anyway: they check nothing was lost.
for (const [seed, kind] of [
  [4, euSupermarket],
  [1, fuelStation],
  [3, fuelStation],
] as const) {
  const doc = makeHardReceipt(new Rng(seed), `hard-sheet-${seed}`, kind);
  test(
    `${doc.id} (${doc.notes.slice(1, 2).join("")}), a dim photo: its total ${doc.truth.total_amount} is read`,
    async () => {
      const file = await photoOf(await toPdf(doc), `sheet-test-${doc.id}`, true);
      const page = pageOf(await loadRaster(readFileSync(file)), path.basename(file));
      await ocrPages([page], engine);
      const total = Number(doc.truth.total_amount).toFixed(2);
      const amounts = page.words.map((w) => w.text.replace(/[^\d.,-]/g, "").replace(",", "."));
      expect(amounts).toContain(total);
    },
    OCR_TIMEOUT,
  );
}
