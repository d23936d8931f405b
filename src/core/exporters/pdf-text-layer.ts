/**
 * Invisible OCR text for exported PDF pages (text render mode 3), so a scanned document becomes searchable and
 * selectable where the words are. Word boxes are in rasterized pixel space of the page *as rasterized* (its own
 * /Rotate applied, top-left origin); they are mapped onto the PDF page's crop box, undoing that /Rotate.
 */
import {
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setCharacterSqueeze,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  StandardFonts,
  TextRenderingMode,
  type PDFDocument,
  type PDFFont,
  type PDFOperator,
  type PDFName,
  type PDFPage,
} from "pdf-lib";
import type { Word } from "../model";
import { quarterTurn } from "./orientation";

type Point = { x: number; y: number };

/** Maps rasterized pixels (x, y) of a `width` × `height` raster onto PDF user space of `page`. */
export function rasterToPdf(page: PDFPage, width: number, height: number): (x: number, y: number) => Point {
  const crop = page.getCropBox();
  const turn = quarterTurn(page.getRotation().angle);
  return (x, y) => {
    const u = x / width;
    const v = y / height;
    // (p, q): normalised position on the un-rotated page, top-left origin.
    const [p, q] = turn === 90 ? [v, 1 - u] : turn === 180 ? [1 - u, 1 - v] : turn === 270 ? [1 - v, u] : [u, v];
    return { x: crop.x + p * crop.width, y: crop.y + (1 - q) * crop.height };
  };
}

/** Replaces characters the standard font cannot encode (it covers WinAnsi) with "?". */
function encodable(font: PDFFont, text: string, cache: Map<string, boolean>): string {
  let out = "";
  for (const ch of text) {
    let ok = cache.get(ch);
    if (ok === undefined) {
      try {
        font.encodeText(ch);
        ok = true;
      } catch {
        ok = false;
      }
      cache.set(ch, ok);
    }
    out += ok ? ch : "?";
  }
  return out;
}

function wordOperators(
  word: Word,
  font: PDFFont,
  fontKey: PDFName,
  map: (x: number, y: number) => Point,
  cache: Map<string, boolean>,
): PDFOperator[] {
  const [x1, y1, x2, y2] = word.bounding_box;
  const text = encodable(font, word.text.trim(), cache);
  if (!text || x2 <= x1 || y2 <= y1) return [];
  const origin = map(x1, y2);
  const right = map(x2, y2);
  const top = map(x1, y1);
  const width = Math.hypot(right.x - origin.x, right.y - origin.y);
  const size = Math.hypot(top.x - origin.x, top.y - origin.y);
  const natural = font.widthOfTextAtSize(text, size);
  if (width <= 0 || size <= 0 || natural <= 0) return [];
  const [a, b] = [(right.x - origin.x) / width, (right.y - origin.y) / width];
  const [c, d] = [(top.x - origin.x) / size, (top.y - origin.y) / size];
  return [
    setFontAndSize(fontKey, size),
    setCharacterSqueeze((100 * width) / natural),
    setTextMatrix(a, b, c, d, origin.x, origin.y),
    // The trailing space lets text extractors see word boundaries ("TOTAL 42.00", not "TOTAL42.00").
    showText(font.encodeText(`${text} `)),
  ];
}

/**
 * Draws `words` invisibly on `page` with `font` (embedded once per document by the caller). MUST be called before
 * the page's /Rotate is changed for display, since the mapping reads the rotation the raster was made with.
 */
export function addTextLayer(
  page: PDFPage,
  font: PDFFont,
  words: Word[],
  raster: { width: number; height: number },
): void {
  if (words.length === 0) return;
  // The font goes into this page's resources under a fresh name that Tf then refers to.
  const fontKey = page.node.newFontDictionary(font.name, font.ref);
  const map = rasterToPdf(page, raster.width, raster.height);
  const cache = new Map<string, boolean>();
  const ops = words.flatMap((w) => wordOperators(w, font, fontKey, map, cache));
  if (ops.length === 0) return;
  page.pushOperators(pushGraphicsState(), beginText(), setTextRenderingMode(TextRenderingMode.Invisible));
  // A page of many words has many operators: they go in slices, never as one argument list.
  for (let i = 0; i < ops.length; i += 1000) page.pushOperators(...ops.slice(i, i + 1000)); // stack-safe: 1,000 per call
  page.pushOperators(endText(), popGraphicsState());
}

export async function embedTextFont(pdf: PDFDocument): Promise<PDFFont> {
  return pdf.embedFont(StandardFonts.Helvetica);
}
