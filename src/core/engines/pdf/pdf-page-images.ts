/** Whether a page paints images: asked of pages with little text (pdf-worker.ts), whose text layer may sit on a scan. */
import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * A scanned page often carries a few words of real text (a Bates number, a page stamp, a fax header) on top of the
 * scan; trusting that layer would skip OCR of the whole page. Pages with less text than this are checked for
 * images (the operator list is costly, so only for them) and OCR'd when they paint one.
 */
export const SPARSE_TEXT = 20;
let imageOps: Set<number> | undefined;

export async function paintsImages(pdfjs: typeof Pdfjs, page: Pdfjs.PDFPageProxy): Promise<boolean> {
  const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  const { OPS } = pdfjs;
  imageOps ??= new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObject,
  ]);
  return ops.fnArray.some((fn) => imageOps!.has(fn));
}
