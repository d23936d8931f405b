/**
 * The real OCR engine wrapped to count the images it is given: the second looks' tests (second-look.test.ts,
 * receipt-look.test.ts) hold their cost to a number of recognitions, and to none on a consistent document.
 */
import type { OcrEngine } from "../../../../src/core/engines/ocr/index.ts";

export function countingEngine(engine: OcrEngine, count: { calls: number }): OcrEngine {
  return {
    ...engine,
    name: engine.name,
    workers: engine.workers,
    recognize: (img, o) => (count.calls++, engine.recognize(img, o)),
    recognizeMany: async (imgs, o) => {
      count.calls += imgs.length;
      return engine.recognizeMany
        ? engine.recognizeMany(imgs, o)
        : Promise.all(imgs.map((i) => engine.recognize(i, o)));
    },
    close: () => engine.close(),
  };
}
