/**
 * PDF profile (pdf-lib): one PDF per split document, built from the source pages. Pages of PDF sources are copied
 * (vector content and text stay as they were); JPEG/PNG sources are embedded as they are, on a page sized to the
 * image (at its recorded density, else 72 dpi); anything else (TIFF, WebP, encrypted PDFs pdf-lib cannot read)
 * is embedded from the page raster as a JPEG. A page with neither is left out with a warning; a profile that can
 * write no PDF at all fails. The page's recorded rotation is set as /Rotate so viewers show it
 * upright. With `ocr_text_layer`, OCR'd pages get invisible text at the word boxes (pages that already had a text
 * layer are left alone, so search hits are not doubled).
 */
import { degrees, PDFDocument, type PDFFont, type PDFPage } from "pdf-lib";
import sharp from "sharp";
import { DocprocError } from "../errors";
import { throwIfAborted } from "../abort";
import type { Page, SourceInput } from "../model";
import type { ProfileOf } from "../project/exports";
import { documentValues, pageByNumber, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { quarterTurn } from "./orientation";
import { addTextLayer, embedTextFont } from "./pdf-text-layer";
import { rasterToJpeg } from "../imaging/jpeg";
import { headBytes, wholeBytes } from "../source-data";

const MAX_PIXELS = 200_000_000;

function isPdf(data: Uint8Array): boolean {
  return new TextDecoder("latin1").decode(data.subarray(0, 1024)).includes("%PDF-");
}

/** Lazily loaded source PDFs, shared by all documents of one export run. */
export class SourcePdfs {
  private readonly cache = new Map<number, Promise<PDFDocument | null>>();

  constructor(private readonly sources: SourceInput[]) {}

  get(index: number): Promise<PDFDocument | null> {
    let doc = this.cache.get(index);
    if (!doc) {
      const src = this.sources.find((s) => s.index === index);
      // A source left in its file is opened here, for this export run's copies only.
      doc = src && isPdf(headBytes(src.data)) ? loadPdf(wholeBytes(src.data)) : Promise.resolve(null);
      this.cache.set(index, doc);
    }
    return doc;
  }
}

async function loadPdf(data: Uint8Array): Promise<PDFDocument | null> {
  try {
    const doc = await PDFDocument.load(data, { ignoreEncryption: true, updateMetadata: false });
    // A damaged file pdf-lib loads may still have no usable page tree (conversion rebuilt it): use the rasters.
    doc.getPageCount();
    return doc.isEncrypted ? null : doc; // encrypted content cannot be copied readably: use the raster
  } catch {
    return null;
  }
}

async function embedImageSource(pdf: PDFDocument, data: Uint8Array): Promise<PDFPage | null> {
  const meta = await sharp(data, { limitInputPixels: MAX_PIXELS }).metadata();
  if ((meta.pages ?? 1) > 1 || (meta.orientation ?? 1) > 1 || !meta.width || !meta.height) return null;
  const image =
    meta.format === "jpeg" ? await pdf.embedJpg(data) : meta.format === "png" ? await pdf.embedPng(data) : null;
  if (!image) return null;
  const k = 72 / (meta.density && meta.density > 1 ? meta.density : 72);
  const page = pdf.addPage([meta.width * k, meta.height * k]);
  page.drawImage(image, { x: 0, y: 0, width: meta.width * k, height: meta.height * k });
  return page;
}

/** Page size in points from the image transform: points for PDF sources, pixels at 72 dpi otherwise. */
function pointSize(p: Page): [number, number] {
  const t = p.image_transform;
  return t.source_unit === "point"
    ? [t.source_width, t.source_height]
    : ([t.source_width, t.source_height].map((v) => v || 612) as [number, number]);
}

async function embedRaster(pdf: PDFDocument, p: Page & { render: NonNullable<Page["render"]> }): Promise<PDFPage> {
  const page = pdf.addPage(pointSize(p));
  const jpeg = await rasterToJpeg(await p.render(), { quality: 85 });
  const image = await pdf.embedJpg(jpeg.data);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return page;
}

/** Null when the page has neither a source page nor an image (supplied text, or the sources are not at hand). */
async function addSourcePage(
  pdf: PDFDocument,
  p: Page,
  ctx: ExportContext,
  sources: SourcePdfs,
): Promise<{ page: PDFPage; copied: boolean } | null> {
  const srcPdf = await sources.get(p.source_file_index);
  if (srcPdf && p.source_file_page_number <= srcPdf.getPageCount()) {
    const [copy] = await pdf.copyPages(srcPdf, [p.source_file_page_number - 1]);
    return { page: pdf.addPage(copy!), copied: true };
  }
  const src = ctx.sources.find((s) => s.index === p.source_file_index);
  const embedded =
    src && !isPdf(headBytes(src.data)) ? await embedImageSource(pdf, wholeBytes(src.data)).catch(() => null) : null;
  if (embedded) return { page: embedded, copied: false };
  return p.render ? { page: await embedRaster(pdf, { ...p, render: p.render }), copied: false } : null;
}

export async function buildDocumentPdf(
  ctx: ExportContext,
  pageNumbers: number[],
  textLayer: boolean,
  sources: SourcePdfs,
  out: ExportWriter,
): Promise<Uint8Array | null> {
  const pdf = await PDFDocument.create();
  let font: PDFFont | null = null;
  for (const n of pageNumbers) {
    throwIfAborted(ctx.signal, "export");
    const p = pageByNumber(ctx, n);
    if (!p) {
      out.warn(`page ${n} is not available; left out of the PDF`);
      continue;
    }
    const added = await addSourcePage(pdf, p, ctx, sources);
    if (!added) {
      out.warn(`page ${n} has no source page and no image; left out of the PDF`);
      continue;
    }
    const { page, copied } = added;
    const hasOwnText = copied && p.text_source === "text_layer";
    if (textLayer && !hasOwnText && p.words.length > 0) {
      font ??= await embedTextFont(pdf);
      addTextLayer(page, font, p.words, {
        width: p.image_transform.rasterized_width,
        height: p.image_transform.rasterized_height,
      });
    }
    const turn = quarterTurn(p.image_transform.rotation);
    if (turn !== 0) page.setRotation(degrees((page.getRotation().angle + turn) % 360));
  }
  if (pdf.getPageCount() === 0) return null;
  pdf.setProducer("docproc");
  pdf.setCreator("docproc");
  return pdf.save();
}

export async function exportPdf(ctx: ExportContext, profile: ProfileOf<"pdf">, out: ExportWriter): Promise<void> {
  const sources = new SourcePdfs(ctx.sources);
  let written = 0;
  for (const doc of ctx.results.documents) {
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    const data = await buildDocumentPdf(ctx, doc.split.page_numbers, profile.options.ocr_text_layer, sources, out);
    if (!data) {
      out.warn(`document ${doc.document_id} has no exportable pages; no PDF written`);
      continue;
    }
    await out.file(withExtension(name, "pdf"), data, [doc.document_id]);
    written++;
  }
  if (written === 0 && ctx.results.documents.length > 0) {
    throw new DocprocError(
      "export_failed",
      "no document has exportable pages (the source files and page images are not available)",
      { stage: "export" },
    );
  }
}
