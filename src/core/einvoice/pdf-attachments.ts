/**
 * The embedded files of a PDF (the document's EmbeddedFiles name tree), read with pdf-lib: the export side needs the
 * full XML of a ZUGFeRD/Factur-X source, not only the fields extraction kept. Never throws: an unreadable PDF has none.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
  type PDFObject,
} from "pdf-lib";

export interface Attachment {
  filename: string;
  data: Uint8Array;
}

const MAX_DEPTH = 32;

function text(obj: PDFObject | undefined): string | undefined {
  return obj instanceof PDFString || obj instanceof PDFHexString ? obj.decodeText() : undefined;
}

function fileOf(doc: PDFDocument, spec: PDFObject | undefined, fallbackName: string): Attachment | null {
  const dict = spec ? doc.context.lookup(spec) : undefined;
  if (!(dict instanceof PDFDict)) return null;
  const ef = dict.lookup(PDFName.of("EF"));
  if (!(ef instanceof PDFDict)) return null;
  const stream = ef.lookup(PDFName.of("UF")) ?? ef.lookup(PDFName.of("F"));
  if (!(stream instanceof PDFRawStream)) return null;
  const filename = text(dict.lookup(PDFName.of("UF"))) ?? text(dict.lookup(PDFName.of("F"))) ?? fallbackName;
  return { filename, data: decodePDFRawStream(stream).decode() };
}

function walk(doc: PDFDocument, node: PDFObject | undefined, out: Attachment[], depth: number): void {
  const dict = node ? doc.context.lookup(node) : undefined;
  if (!(dict instanceof PDFDict) || depth > MAX_DEPTH) return;
  const names = dict.lookup(PDFName.of("Names"));
  if (names instanceof PDFArray) {
    for (let i = 0; i + 1 < names.size(); i += 2) {
      const file = fileOf(doc, names.get(i + 1), text(names.lookup(i)) ?? `attachment-${out.length + 1}`);
      if (file) out.push(file);
    }
  }
  const kids = dict.lookup(PDFName.of("Kids"));
  if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) walk(doc, kids.get(i), out, depth + 1);
}

/** Per source bytes: three e-invoice profiles over a long PDF's documents would otherwise parse it once each. */
const cache = new WeakMap<Uint8Array, Promise<Attachment[]>>();

export function pdfAttachments(data: Uint8Array): Promise<Attachment[]> {
  let found = cache.get(data);
  if (!found) cache.set(data, (found = readAttachments(data)));
  return found;
}

async function readAttachments(data: Uint8Array): Promise<Attachment[]> {
  try {
    const doc = await PDFDocument.load(data, { ignoreEncryption: true, updateMetadata: false });
    const names = doc.catalog.lookup(PDFName.of("Names"));
    if (!(names instanceof PDFDict)) return [];
    const out: Attachment[] = [];
    walk(doc, names.get(PDFName.of("EmbeddedFiles")), out, 0);
    return out;
  } catch {
    return [];
  }
}
