import path from "node:path";
import sharp from "sharp";
import type { Page, RasterImage } from "../../../../src/core/model.ts";

/** Shared helpers of the OCR tests (not a test file itself). */
export const TESSERACT_TEST = path.resolve(import.meta.dir, "../../../../fixtures/corpora/ocr-text/tesseract-test");

export async function loadRaster(file: string | Buffer): Promise<RasterImage> {
  const { data, info } = await sharp(file, { limitInputPixels: 50_000_000 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3 | 4,
  };
}

/** A page the way conversion delivers an image page: pixel source, render_scale 1, needing OCR. */
export function pageOf(raster: RasterImage, name: string, pageNumber = 1): Page {
  return {
    page_number: pageNumber,
    source_file_index: 0,
    source_filename: name,
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: raster.width,
      rasterized_height: raster.height,
      source_width: raster.width,
      source_height: raster.height,
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
    render: async () => raster,
  };
}

const normalize = (s: string) => s.normalize("NFKC").replace(/\s+/g, " ").trim();

/** Character error rate: Levenshtein distance / reference length, after NFKC and whitespace collapsing. */
export function characterErrorRate(hypothesis: string, reference: string): number {
  const a = [...normalize(hypothesis)];
  const b = [...normalize(reference)];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return b.length === 0 ? (a.length === 0 ? 0 : 1) : prev[b.length] / b.length;
}

/** Per-test timeout for tests that run real OCR: seconds each on a loaded 2-core machine. */
export const OCR_TIMEOUT = 60_000;
