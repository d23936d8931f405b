/**
 * Server-side checks of captured files, run before anything is stored: the phone's own checks are a courtesy,
 * these are the rule (a direct POST skips the page entirely).
 *
 * MUST recognise the format by content (magic bytes), never by name or declared type; MUST accept PDFs and the
 * image formats conversion reads, and nothing else; MUST count pages as conversion will (a PDF's real page
 * count, a TIFF's pages, one page for any other image), so max_pages means the same on both sides.
 */
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { DocprocError } from "../core/errors";
import { CONTENT_TYPES, sniffFormat, type SniffedFormat } from "../core/convert/sniff";
import { DEFAULT_LIMITS } from "../core/convert-limits";

export type CaptureFormat = Exclude<SniffedFormat, "unknown">;

export interface CapturedFile {
  filename: string;
  data: Uint8Array;
}

export interface InspectedFile extends CapturedFile {
  format: CaptureFormat;
  content_type: string;
  pages: number;
}

export const ACCEPTED_DESCRIPTION = "PDF or an image (JPEG, PNG, WebP, TIFF, GIF, BMP)";

async function pdfPages(f: CapturedFile): Promise<number> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(f.data, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch (err) {
    throw new DocprocError("corrupt_file", `${f.filename}: the PDF could not be read (${(err as Error).message})`, {
      cause: err,
    });
  }
  // Nobody can type a password on the capture page, so an encrypted PDF would only fail later, in processing.
  if (doc.isEncrypted)
    throw new DocprocError(
      "encrypted_file",
      `${f.filename} is password-protected; capture accepts unprotected PDFs only`,
    );
  const n = doc.getPageCount();
  if (n < 1) throw new DocprocError("corrupt_file", `${f.filename}: the PDF has no pages`);
  return n;
}

async function imagePages(f: CapturedFile, format: CaptureFormat): Promise<number> {
  if (format === "bmp") return 1; // conversion reads BMP itself; sharp does not
  try {
    const meta = await sharp(f.data, { limitInputPixels: DEFAULT_LIMITS.maxInputPixels }).metadata();
    if (!meta.width || !meta.height) throw new Error("no image size in the header");
    return format === "tiff" ? Math.max(1, meta.pages ?? 1) : 1;
  } catch (err) {
    const tooBig = /pixel limit/i.test((err as Error).message);
    throw new DocprocError(
      tooBig ? "too_large" : "corrupt_file",
      `${f.filename}: the image could not be read (${(err as Error).message})`,
      { cause: err },
    );
  }
}

/** Sniffs and counts one file; throws `empty_file`, `unsupported_format`, `corrupt_file`, `encrypted_file` or `too_large`. */
export async function inspectCapturedFile(f: CapturedFile): Promise<InspectedFile> {
  if (f.data.byteLength === 0) throw new DocprocError("empty_file", `${f.filename} is empty`);
  const format = sniffFormat(f.data);
  if (format === "unknown")
    throw new DocprocError("unsupported_format", `${f.filename} is not a ${ACCEPTED_DESCRIPTION}`);
  const pages = format === "pdf" ? await pdfPages(f) : await imagePages(f, format);
  return { ...f, format, content_type: CONTENT_TYPES[format], pages };
}

/** Inspects every file (all problems reported at once) and enforces the page cap on the total. */
export async function inspectCapture(files: CapturedFile[], maxPages: number): Promise<InspectedFile[]> {
  const results = await Promise.allSettled(files.map(inspectCapturedFile));
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failed.length) {
    const first = failed[0] instanceof DocprocError ? failed[0] : new DocprocError("internal", String(failed[0]));
    if (failed.length === 1) throw first;
    throw new DocprocError(first.code, failed.map((e) => (e instanceof Error ? e.message : String(e))).join("; "));
  }
  const inspected = results.map((r) => (r as PromiseFulfilledResult<InspectedFile>).value);
  const total = inspected.reduce((n, f) => n + f.pages, 0);
  if (total > maxPages) {
    throw new DocprocError("too_large", `${total} pages submitted; this capture code accepts at most ${maxPages}`, {
      details: { pages: total, max_pages: maxPages },
    });
  }
  return inspected;
}
