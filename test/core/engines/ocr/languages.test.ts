/**
 * `ocr.languages`: the native engine reads with the system's traineddata (Debian tesseract-ocr-<lang>, installed
 * here and by .ci/run for deu fra spa ita nld por), the embedded engine with what it ships; a language an engine
 * lacks is left out with a warning, never a failure. Eurotext (tesseract's own test page, corpora/ocr-text) holds
 * English, German, French, Italian, Spanish and Portuguese sentences.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { chooseLanguages } from "../../../../src/core/engines/ocr/languages.ts";
import { toGrey } from "../../../../src/core/imaging/grey.ts";
import type { RasterImage } from "../../../../src/core/model.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { characterErrorRate, loadRaster, OCR_TIMEOUT, pageOf, TESSERACT_TEST } from "./helpers.ts";

const gold = fs.readFileSync(path.join(TESSERACT_TEST, "eurotext.txt"), "utf8");
let eurotext: RasterImage;
let native: OcrEngine;
let cacheDir: string;

beforeAll(async () => {
  eurotext = { ...toGrey(await loadRaster(path.join(TESSERACT_TEST, "eurotext.tif"))), channels: 1 };
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "ocr-langs-"));
  native = await createOcrEngine({ engine: "native", workers: 1, cacheDir });
}, OCR_TIMEOUT);
afterAll(async () => {
  await native?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe("language choice", () => {
  test("requested languages an engine has, in order; English when it has none; duplicates once", () => {
    const has = (l: string) => ["eng", "deu", "fra"].includes(l);
    expect(chooseLanguages(["deu", "zzz", "eng", "deu"], has)).toEqual({ use: ["deu", "eng"], missing: ["zzz"] });
    expect(chooseLanguages(["zzz"], has)).toEqual({ use: ["eng"], missing: ["zzz"] });
    expect(chooseLanguages(undefined, has)).toEqual({ use: ["eng"], missing: [] });
  });
});

describe("native engine with the system's traineddata", () => {
  test(
    "eng+deu+spa+por reads the umlauts and accents English alone misses, with a lower character error rate",
    async () => {
      const eng = await native.recognize(eurotext, { languages: ["eng"] });
      const many = await native.recognize(eurotext, { languages: ["eng", "deu", "spa", "por"] });
      expect(many.warnings).toBeUndefined();
      expect(many.text).toContain("über den faulen Hund");
      expect(many.text).toMatch(/preguiçoso/);
      expect(eng.text).not.toContain("über");
      const [cerEng, cerMany] = [characterErrorRate(eng.text, gold), characterErrorRate(many.text, gold)];
      expect(cerMany).toBeLessThan(cerEng);
      expect(cerMany).toBeLessThanOrEqual(0.03);
      // the combined folder links the system's models next to docproc's English, nothing is copied
      const linked = fs.readdirSync(cacheDir).find((d) => d.startsWith("docproc-tessdata-langs-"));
      expect(fs.lstatSync(path.join(cacheDir, linked!, "deu.traineddata")).isSymbolicLink()).toBe(true);
    },
    OCR_TIMEOUT,
  );

  test(
    "a language that is not installed is left out with a warning naming its Debian package; the page is still read",
    async () => {
      const r = await native.recognize(eurotext, { languages: ["deu", "zzz"] });
      expect(r.warnings).toEqual([expect.stringContaining("zzz")]);
      expect(r.warnings![0]).toContain("tesseract-ocr-zzz");
      expect(r.warnings![0]).toContain("read with deu only");
      expect(r.text).toContain("über den faulen Hund");
    },
    OCR_TIMEOUT,
  );
});

describe("embedded engine", () => {
  test(
    "reads German with the model it ships (@tesseract.js-data/deu); a language it does not ship gives one warning per run, pages still read",
    async () => {
      const wasm = await createOcrEngine({ engine: "wasm", workers: 1 });
      try {
        const de = await wasm.recognize(eurotext, { languages: ["deu", "eng"] });
        expect(de.warnings).toBeUndefined();
        expect(de.text).toContain("über den faulen Hund");
        expect([wasm.has?.("deu"), wasm.has?.("zzz")]).toEqual([true, false]);
        const pages = [pageOf(eurotext, "a.tif", 1), pageOf(eurotext, "b.tif", 2)];
        const report = await ocrPages(pages, wasm, { languages: ["eng", "zzz"] });
        expect(report.failed).toEqual([]);
        expect(report.warnings).toEqual([
          expect.stringMatching(
            /OCR language zzz is not available to the embedded engine: pages were read with eng only/,
          ),
        ]);
        for (const p of pages) expect(characterErrorRate(p.text, gold)).toBeLessThanOrEqual(0.08);
      } finally {
        await wasm.close();
      }
    },
    OCR_TIMEOUT * 2,
  );
});
