/** Pages drawn from lines of text and an engine that counts its passes, for the OCR language tests (no test file). */
import { createCanvas } from "@napi-rs/canvas";
import type { OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { drawFontFamily } from "../../../../src/core/imaging/draw-font.ts";
import type { Page, RasterImage } from "../../../../src/core/model.ts";
import { pageOf } from "../../engines/ocr/helpers.ts";

/** A page of `lines` at about 200 DPI (11-point type), grey. */
export function drawn(lines: string[]): RasterImage {
  const [w, h] = [1654, 1400];
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "#000000";
  ctx.font = `32px ${drawFontFamily()}`;
  lines.forEach((line, i) => ctx.fillText(line, 140, 150 + i * 70));
  const rgba = ctx.getImageData(0, 0, w, h).data;
  const grey = new Uint8Array(w * h);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;
  return { data: grey, width: w, height: h, channels: 1 };
}

/** The engine with every recognition's languages recorded ("default" when the call named none). */
export function counted(engine: OcrEngine): OcrEngine & { calls: string[] } {
  const calls: string[] = [];
  const key = (l?: readonly string[]) => l?.join("+") ?? "default";
  return {
    name: engine.name,
    workers: engine.workers,
    calls,
    has: (l) => engine.has?.(l) ?? false,
    recognize: (img, o) => {
      calls.push(key(o?.languages));
      return engine.recognize(img, o);
    },
    recognizeMany: async (imgs, o) => {
      calls.push(key(o?.languages));
      return engine.recognizeMany ? engine.recognizeMany(imgs, o) : [];
    },
    close: () => engine.close(),
  };
}

export const source = (lines: string[], name: string, index: number, pageNumber = 1): Page => ({
  ...pageOf(drawn(lines), name, pageNumber),
  source_file_index: index,
});
