/**
 * A scanned page read at the scan's own resolution (issue 34). A scanner PDF page is one image drawn over the page;
 * rendered at the OCR resolution (300 DPI) a 200-DPI scan is enlarged by canvas without smoothing, every second
 * pixel doubled: a bilevel (CCITT, JBIG2) page's strokes turn ragged and tesseract reads fewer words (word F1 0.79
 * against 0.84 for the same image read as it is), and the enlarged image costs more to draw and to read. So a page
 * whose drawing is exactly one upright image between MIN_DPI and the render's resolution is handed over as that
 * image's own pixels, in grey, without drawing it: its size is then smaller than the page's rasterized size, which
 * the OCR stage allows (it scales word boxes back into the page's space). Grey and colour scans are rendered as
 * before: read at 200 DPI as they are, the accuracy gate's 200-DPI JPEG scans lost an invoice number (I read as 1).
 * Such a page's image is decoded twice (for the operator list here, then by the render: 0.06 CPU-s a page for
 * 200-DPI JPEG scans), so the worker stops looking at a document's pages after the first that is no bilevel scan.
 */
import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import type { RenderResult } from "./pdf-protocol.ts";

/** Below this the image is enlarged as before: tesseract reads small type better at 300 DPI. */
const MIN_DPI = 150;
/** Share of a pixel's size its width and height may differ by (a fax's 200 × 100 DPI pixels are not square). */
const SQUARE = 0.02;
/** How far (in points) the image may start from the page's corner or fall short of its edge. */
const EDGE = 2;

interface ImageData {
  width: number;
  height: number;
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** Documents with a page to read that was no bilevel scan: their pages are not looked at again. */
const notBilevelScans = new WeakSet<object>();

/**
 * A render request's page as its bilevel scan (`scan` requests only; the page is cleaned up then), or null: render it
 * as usual. A document's scans are alike, so after its first page that is none (its image decoded for nothing) its
 * pages are rendered straight.
 */
export async function ownScanRaster(
  pdfjs: typeof Pdfjs,
  doc: Pdfjs.PDFDocumentProxy,
  page: Pdfjs.PDFPageProxy,
  req: { scale: number; scan?: boolean; own?: boolean },
): Promise<RenderResult | null> {
  if (req.own) {
    const own = await scanImageOf(pdfjs, page, req, true).catch(() => null);
    if (own) page.cleanup();
    return own;
  }
  if (!req.scan || notBilevelScans.has(doc)) return null;
  const own = await scanImageOf(pdfjs, page, req).catch(() => null);
  if (own) page.cleanup();
  else notBilevelScans.add(doc);
  return own;
}

/**
 * The page's one image in grey at its own resolution, or null when the page is anything else (more than one image,
 * vector drawing or text, a turned or mirrored image, one that does not fill the page, an image that is not bilevel
 * unless `anyKind`, a resolution outside [MIN_DPI, the render's]): then the caller renders it as usual.
 */
export async function scanImageOf(
  pdfjs: typeof Pdfjs,
  page: Pdfjs.PDFPageProxy,
  target: { scale: number },
  anyKind = false,
): Promise<RenderResult | null> {
  if (page.rotate % 360 !== 0) return null;
  const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.ENABLE });
  const drawn = soleImage(pdfjs.OPS, ops);
  if (!drawn) return null;
  const [a, b, c, d, e, f] = drawn.ctm;
  // Upright and not mirrored: the image's first row is the top of the page (PDF y grows upwards).
  if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return null;
  const [x0, y0, x1, y1] = page.view;
  if (Math.abs(e - x0) > EDGE || Math.abs(f - y0) > EDGE) return null;
  if (Math.abs(e + a - x1) > EDGE || Math.abs(f + d - y1) > EDGE) return null;
  const img = await imageData(page, drawn.objId);
  const bilevel = img?.kind === pdfjs.ImageKind.GRAYSCALE_1BPP;
  if (!img?.data || (!bilevel && !anyKind)) return null;
  const own = img.width / a;
  if (Math.abs(img.height / d - own) > own * SQUARE) return null;
  if (own * 72 < MIN_DPI || own > target.scale * (1 + SQUARE)) return null;
  if (bilevel) return bilevelGrey(img);
  const channels = img.kind === pdfjs.ImageKind.RGB_24BPP ? 3 : img.kind === pdfjs.ImageKind.RGBA_32BPP ? 4 : 0;
  return channels ? lumaOf(img, channels) : null;
}

/** One byte of grey per pixel of an RGB(A) image (ITU-R BT.601 luma, as imaging/render.ts toGrayscale). */
function lumaOf(img: ImageData, channels: number): RenderResult {
  const { width, height } = img;
  const src = img.data!;
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += channels)
    out[i] = (src[j]! * 77 + src[j + 1]! * 150 + src[j + 2]! * 29) >> 8;
  return { width, height, channels: 1, data: out };
}

/** The objId and transform of the page's only image paint, when painting it is all the page does. */
function soleImage(
  OPS: typeof Pdfjs.OPS,
  list: { fnArray: number[]; argsArray: unknown[] },
): { objId: string; ctm: number[] } | null {
  let ctm = [1, 0, 0, 1, 0, 0];
  const saved: number[][] = [];
  let found: { objId: string; ctm: number[] } | null = null;
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) saved.push(ctm);
    else if (fn === OPS.restore) ctm = saved.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as number[]);
    else if (fn === OPS.paintImageXObject && !found) found = { objId: String(args![0]), ctm };
    else if (fn !== OPS.dependency) return null;
  }
  return found;
}

function multiply(m: number[], n: number[]): number[] {
  return [
    n[0]! * m[0]! + n[1]! * m[2]!,
    n[0]! * m[1]! + n[1]! * m[3]!,
    n[2]! * m[0]! + n[3]! * m[2]!,
    n[2]! * m[1]! + n[3]! * m[3]!,
    n[4]! * m[0]! + n[5]! * m[2]! + m[4]!,
    n[4]! * m[1]! + n[5]! * m[3]! + m[5]!,
  ];
}

/** The decoded image pdf.js keeps for the page (or for the document, "g_" ids), once it is there. */
function imageData(page: Pdfjs.PDFPageProxy, objId: string): Promise<ImageData | null> {
  const internal = page as unknown as {
    objs: { get(id: string, callback: (data: unknown) => void): void };
    commonObjs: { get(id: string, callback: (data: unknown) => void): void };
  };
  const objs = objId.startsWith("g_") ? internal.commonObjs : internal.objs;
  return new Promise((resolve) => {
    try {
      objs.get(objId, (data) => resolve((data as ImageData | null) ?? null));
    } catch {
      resolve(null);
    }
  });
}

/** One byte of grey per pixel: 1-bit rows are byte-aligned, a set bit is white (pdf.js applied /Decode already). */
function bilevelGrey(img: ImageData): RenderResult {
  const { width, height } = img;
  const src = img.data!;
  const out = new Uint8Array(width * height);
  const rowBytes = (width + 7) >> 3;
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    const at = y * width;
    for (let x = 0; x < width; x++) out[at + x] = (src[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
  }
  return { width, height, channels: 1, data: out };
}
