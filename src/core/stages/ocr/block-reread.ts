/**
 * Blocks that tesseract's lines ran into a neighbouring block, read again on their own (engines/ocr/crossed-blocks.ts
 * finds them and judges the new reading). An invoice's address window beside its details column, rows a third of a
 * line apart, came back as lines two rows tall and garbled; the window cropped alone reads right. It only replaces a
 * block's words with a reading surer of itself; a block that fails to read keeps the first reading.
 */
import { crop, type GreyImage } from "../../imaging/grey.ts";
import { crossedBlocks, replaceBlock } from "../../engines/ocr/crossed-blocks.ts";
import type { OcrEngine, OcrResult } from "../../engines/ocr/types.ts";
import type { RasterImage } from "../../model.ts";
import { mergeDiacritics } from "./language-merge.ts";

/** Tesseract's page segmentation mode for "a single uniform block of text". */
const SINGLE_BLOCK = 6;

/**
 * `reading`'s result with its crossed blocks read again. Not for a till roll read as one block (no blocks side by
 * side). `lend`: the engine of the names' language, when it is not the page's: each block is read with it too and
 * lends the block's words their diacritics (language-merge.ts), as the page's reading gets them.
 */
export async function rereadCrossedBlocks(
  { image, result }: { image: GreyImage; result: OcrResult },
  engine: OcrEngine,
  dpi?: number,
  lend?: OcrEngine | null,
): Promise<OcrResult> {
  const boxes = crossedBlocks(result.words, image.width, image.height);
  if (boxes.length === 0) return result;
  const crops = boxes.map(([x1, y1, x2, y2]) => ({ ...crop(image, x1, y1, x2 - x1, y2 - y1), channels: 1 as const }));
  const reads = await readAll(engine, crops, dpi);
  const lent = lend ? await readAll(lend, crops, dpi) : [];
  let out = result;
  for (const [i, box] of boxes.entries()) {
    const read = reads[i];
    const other = lent[i];
    if (read) out = replaceBlock(out, box, other ? mergeDiacritics(read, other) : read);
  }
  return out;
}

async function readAll(engine: OcrEngine, crops: RasterImage[], dpi?: number): Promise<Array<OcrResult | null>> {
  const opts = { psm: SINGLE_BLOCK, dpi };
  if (engine.recognizeMany) return engine.recognizeMany(crops, opts);
  return Promise.all(crops.map((img) => engine.recognize(img, opts).catch(() => null)));
}
