/**
 * Blocks that tesseract's lines ran into a neighbouring block, read again on their own (engines/ocr/crossed-blocks.ts
 * finds them and judges the new reading). An invoice's address window beside its details column, rows a third of a
 * line apart, came back as lines two rows tall and garbled; the window cropped alone reads right. It only replaces a
 * block's words with a reading surer of itself; a block that fails to read keeps the first reading.
 */
import { crop, type GreyImage } from "../../imaging/grey.ts";
import { crossedBlocks, replaceBlock } from "../../engines/ocr/crossed-blocks.ts";
import type { OcrEngine, OcrResult } from "../../engines/ocr/types.ts";

/** Tesseract's page segmentation mode for "a single uniform block of text". */
const SINGLE_BLOCK = 6;

/**
 * `reading`'s result with its crossed blocks read again. Not for a till roll read as one block (no blocks side by
 * side); called before the names' language lends its diacritics, which it then lends to the words read again too.
 */
export async function rereadCrossedBlocks(
  { image, result }: { image: GreyImage; result: OcrResult },
  engine: OcrEngine,
  dpi?: number,
): Promise<OcrResult> {
  const boxes = crossedBlocks(result.words, image.width, image.height);
  if (boxes.length === 0) return result;
  const crops = boxes.map(([x1, y1, x2, y2]) => ({ ...crop(image, x1, y1, x2 - x1, y2 - y1), channels: 1 as const }));
  const opts = { psm: SINGLE_BLOCK, dpi };
  const reads = engine.recognizeMany
    ? await engine.recognizeMany(crops, opts)
    : await Promise.all(crops.map((img) => engine.recognize(img, opts).catch(() => null)));
  let out = result;
  for (const [i, box] of boxes.entries()) {
    const read = reads[i];
    if (read) out = replaceBlock(out, box, read);
  }
  return out;
}
