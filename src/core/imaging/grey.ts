/**
 * The one grey image of core: 8-bit, one channel, row-major. OCR hands it to tesseract; separator detection reads
 * bars, codes and ink from small copies of it (grey-thumbnail.ts).
 */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}
