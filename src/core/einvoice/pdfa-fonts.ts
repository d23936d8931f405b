/**
 * Object-level PDF/A checks over every object of a PDF (pdfa-check.ts): fonts without an embedded font program
 * (Type 3 fonts are their own programs; a Type 0 font is checked through its descendant CID font), streams with the
 * LZW filter PDF/A forbids, DeviceCMYK images (the output intent docproc writes is RGB).
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFDocument } from "pdf-lib";

export function fontProblems(pdf: PDFDocument): { notEmbedded: string[]; lzw: boolean; cmykImages: boolean } {
  const notEmbedded = new Set<string>();
  let lzw = false;
  let cmykImages = false;
  const name = (d: PDFDict, key: string) => d.get(PDFName.of(key))?.toString();
  for (const [, obj] of pdf.context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (!dict) continue;
    const filter = dict.lookup(PDFName.of("Filter"));
    const filters = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
    if (filters.includes("/LZWDecode")) lzw = true;
    if (name(dict, "Subtype") === "/Image" && name(dict, "ColorSpace") === "/DeviceCMYK") cmykImages = true;
    if (name(dict, "Type") !== "/Font") continue;
    const subtype = name(dict, "Subtype");
    if (subtype === "/Type3" || subtype === "/Type0") continue;
    const descriptor = dict.lookup(PDFName.of("FontDescriptor"));
    const embedded =
      descriptor instanceof PDFDict &&
      ["FontFile", "FontFile2", "FontFile3"].some((k) => descriptor.has(PDFName.of(k)));
    if (!embedded) notEmbedded.add((name(dict, "BaseFont") ?? "(unnamed)").replace(/^\//, ""));
  }
  return { notEmbedded: [...notEmbedded].sort(), lzw, cmykImages };
}
