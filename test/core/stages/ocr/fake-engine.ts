/** An OCR engine whose every image is answered by `read`: the OCR stage's tests drive recovery steps with it. */
import type { OcrEngine, OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import type { RasterImage } from "../../../../src/core/model.ts";

export function fakeEngine(read: (img: RasterImage) => OcrResult): OcrEngine {
  return {
    name: "fake",
    workers: 1,
    recognize: async (img) => read(img),
    recognizeMany: async (imgs) => imgs.map(read),
    close: async () => {},
  };
}
