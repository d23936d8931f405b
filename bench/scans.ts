/**
 * A JBIG2 scanner PDF for the bench (issue 34: "image-only scanner PDFs (JPEG, JBIG2, CCITT)"), built from the CCITT
 * G4 one without a JBIG2 encoder (Debian has none): a JBIG2 generic region may be MMR-coded, and MMR is CCITT G4
 * with 1 for black, which is what the CCITT file's `/BlackIs1 true` streams hold. So each page's G4 bytes become a
 * JBIG2 embedded stream (PDF's JBIG2Decode, no file header): a page information segment, one immediate lossless
 * generic region segment with MMR on and the G4 bytes as its data (PDF forbids end-of-page segments there). The
 * pixels are the same; the decoders that run are the JBIG2 ones (pdf.js's, poppler's, Ghostscript's for OCRmyPDF).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, type PDFRef } from "pdf-lib";

/** A segment header with a 1-byte page association and no referred-to segments (T.88 7.2). */
function segment(number: number, type: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(11 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, number);
  out[4] = type; // page association is one byte, not deferred
  out[5] = 0; // no referred-to segments
  out[6] = 1; // page 1
  view.setUint32(7, data.length);
  out.set(data, 11);
  return out;
}

/** The JBIG2 embedded stream of one page: page information, then an immediate lossless generic region (MMR). */
export function mmrAsJbig2(g4: Uint8Array, width: number, height: number, dpi: number): Uint8Array {
  const pageInfo = new Uint8Array(19);
  const p = new DataView(pageInfo.buffer);
  p.setUint32(0, width);
  p.setUint32(4, height);
  p.setUint32(8, Math.round(dpi / 0.0254)); // pixels per metre
  p.setUint32(12, Math.round(dpi / 0.0254));
  // tiff2pdf's G4 codes the paper as black runs (BlackIs1 true makes them white): as JBIG2's MMR reads the same
  // runs, the page is black by default and the region XORed onto it. Eventually lossless, default pixel 1,
  // default combination operator XOR.
  pageInfo[16] = 0x01 | 0x04 | (2 << 3);
  const region = new Uint8Array(18 + g4.length);
  const r = new DataView(region.buffer);
  r.setUint32(0, width);
  r.setUint32(4, height);
  // x, y = 0; region flags: XOR; then the generic region flags: MMR = 1, template 0, no typical prediction.
  region[16] = 2;
  region[17] = 0x01;
  region.set(g4, 18);
  const info = segment(0, 48, pageInfo);
  const generic = segment(1, 39, region);
  const out = new Uint8Array(info.length + generic.length);
  out.set(info, 0);
  out.set(generic, info.length);
  return out;
}

/** `ccittPdf` with every CCITT G4 image (K -1, BlackIs1 true) rewritten as the same pixels in JBIG2 (MMR). */
export async function jbig2FromCcitt(ccittPdf: string, out: string, dpi = 200): Promise<void> {
  const doc = await PDFDocument.load(readFileSync(ccittPdf));
  const images: Array<[PDFRef, PDFRawStream]> = [];
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFRawStream && obj.dict.get(PDFName.of("Filter")) === PDFName.of("CCITTFaxDecode"))
      images.push([ref, obj]);
  }
  if (images.length === 0) throw new Error(`no CCITT image in ${ccittPdf}`);
  for (const [ref, stream] of images) {
    const parms = stream.dict.lookup(PDFName.of("DecodeParms"), PDFDict);
    const num = (d: PDFDict, k: string) => d.lookup(PDFName.of(k), PDFNumber).asNumber();
    if (num(parms, "K") >= 0 || String(parms.get(PDFName.of("BlackIs1"))) !== "true")
      throw new Error("only G4 images with BlackIs1 true carry MMR data as JBIG2 reads it");
    const width = num(stream.dict, "Width");
    const height = num(stream.dict, "Height");
    const dict = doc.context.obj({
      Type: "XObject",
      Subtype: "Image",
      Width: width,
      Height: height,
      BitsPerComponent: 1,
      ColorSpace: "DeviceGray",
      Filter: "JBIG2Decode",
    });
    doc.context.assign(ref, PDFRawStream.of(dict, mmrAsJbig2(stream.contents, width, height, dpi)));
  }
  writeFileSync(out, await doc.save({ useObjectStreams: false }));
}
