/**
 * What the second looks' tests (second-look.test.ts, receipt-look.test.ts) share: the real OCR engine wrapped to
 * count the images it is given (their cost is held to a number of recognitions, and to none on a consistent
 * document), and a supplied text printed in Courier, scanned and read by that engine as one page.
 */
import { textToPdf } from "../../../../fixtures/label-audit/pdf";
import type { OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import type { Page } from "../../../../src/core/model";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { scanOf } from "../../../accuracy/scans.ts";

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

/** `text` as a 200-DPI greyscale scan (skewed `angle`°, JPEG `quality`) in a PDF, converted and read by `engine`. */
export async function scannedTextPage(
  text: string,
  name: string,
  scan: { angle: number; quality: number },
  engine: OcrEngine,
): Promise<Page> {
  const pdf = await textToPdf(text, name);
  const file = await scanOf(pdf, `${name}.pdf`, { dpi: 200, ...scan });
  const source = await convertSource(
    {
      index: 0,
      filename: `${name}.pdf`,
      data: new Uint8Array(await Bun.file(file).arrayBuffer()),
      split_policy: "inherit",
    },
    { firstPageNumber: 1, maxPages: 1 },
  );
  await ocrPages(source.pages, engine);
  return source.pages[0]!;
}
