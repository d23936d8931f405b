import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import { createWorker, OEM, type Worker } from "tesseract.js";
import { createOcrEngine, resolveTessdataDir, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { encodeSpix, spixEncodings } from "../../../../src/core/engines/ocr/spix.ts";
import { embeddedTessdataDir } from "../../../../src/core/engines/ocr/tessdata.ts";
import { parseTesseractTsv } from "../../../../src/core/engines/ocr/tsv.ts";
import { crop, encodePgm, toGrey, type GreyImage } from "../../../../src/core/imaging/grey.ts";
import { loadRaster, OCR_TIMEOUT, TESSERACT_TEST } from "./helpers.ts";

describe("encodeSpix", () => {
  test("writes leptonica's header and each line as whole 32-bit words, first pixel in the high byte", () => {
    const img: GreyImage = { width: 5, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) };
    const out = encodeSpix(img);
    const head = new DataView(out.buffer);
    expect(new TextDecoder().decode(out.subarray(0, 4))).toBe("spix");
    // width, height, depth, words per line, colours, raster bytes
    expect([4, 8, 12, 16, 20, 24].map((at) => head.getUint32(at, true))).toEqual([5, 2, 8, 2, 0, 16]);
    expect(out.length).toBe(28 + 16);
    // Little-endian words: pixel x sits at byte (x ^ 3) of its line, the line padded with zeros to 8 bytes.
    expect([...out.subarray(28)]).toEqual([4, 3, 2, 1, 0, 0, 0, 5, 9, 8, 7, 6, 0, 0, 0, 10]);
  });
});

describe("the embedded engine hands tesseract.js a spix", () => {
  let engine: OcrEngine;
  let worker: Worker;
  let page: GreyImage;

  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "wasm", workers: 1 });
    const td = resolveTessdataDir();
    worker = await createWorker("eng", OEM.LSTM_ONLY, {
      langPath: embeddedTessdataDir(td, [], undefined) ?? td.dir,
      gzip: td.gzip,
      cacheMethod: "none",
    });
    await worker.setParameters({ debug_file: "/dev/null" } as Record<string, string>);
    // An odd width, so lines end inside a word and the padding counts.
    const grey = toGrey(await loadRaster(path.join(TESSERACT_TEST, "phototest.tif")));
    page = crop(grey, 0, 0, grey.width - 3, grey.height);
  }, OCR_TIMEOUT);
  afterAll(async () => {
    await engine.close();
    await worker.terminate();
  });

  test(
    "encoded once per image, and read word for word as the same image given as a PGM",
    async () => {
      expect(page.width % 4).not.toBe(0);
      const before = spixEncodings();
      const viaEngine = await engine.recognize({ ...page, channels: 1 }, { dpi: 300 });
      expect(spixEncodings() - before).toBe(1);
      const params = { tessedit_pageseg_mode: "3", user_defined_dpi: "300" } as Record<string, string>;
      const pgm = await worker.recognize(encodePgm(page) as unknown as Buffer, params, { text: false, tsv: true });
      const viaPgm = parseTesseractTsv(pgm.data.tsv ?? "");
      expect(viaEngine.words.length).toBeGreaterThan(50);
      expect(viaEngine).toEqual(viaPgm);
    },
    OCR_TIMEOUT,
  );
});
