/**
 * A large PDF read from its file, not from memory (issue 34, memory bounded by design). pdf.js reads a document
 * from one array of all its bytes; held whole, a 2,000-page file whose copies embed their own CID fonts took its
 * 264 MB of the process's memory for the whole run (and the growth from 1,000 to 2,000 pages followed the file
 * size on every joined shape). The worker now hands pdf.js, for a file the main thread mapped (pdf-bytes.ts), a
 * base stream that reads the file where pdf.js asks, through a few cached chunks:
 * - an object fetched by its offset (`makeSubStream(offset)` without a length: "from here on") stays such a view,
 *   and its dictionary is parsed through the chunks;
 * - a stream object (`makeSubStream(start, length)`: content, fonts, images, object streams) becomes a plain pdf.js
 *   `Stream` over a copy of its bytes, garbage once pdf.js lets go of it, exactly as it would have read them from
 *   the whole array (positions inside a stream are the stream's own; the same end for a length past the file);
 * - `getBytes`, `getByteRange` and `peekBytes` return copies (pdf.js never writes into them).
 * Every position is the file's, as in the whole array, so offsets, `start` and `moveStart` mean what they did.
 *
 * The worker registers the file under a token and opens the document with a small marker instead of its bytes
 * (pdf-file-source.ts); `docprocFileStreams` tells it that this patch is in (else it reads the file whole).
 * Views have no `bytes` of their own: the font-sharing key (pdfjs-font-sharing.ts) skips them; stream objects, the
 * only thing it hashes, are copies.
 */
import type { Patch } from "./pdfjs-patch.ts";

/** Bytes read from the file at a time, and how many such chunks the file keeps (~2 MB). */
export const FILE_CHUNK_BYTES = 64 * 1024;
export const FILE_CHUNKS_KEPT = 32;

const FILE_STREAM_CLASS = `class NullStream extends Stream {
  constructor() {
    super(new Uint8Array(0));
  }
}
const docprocNoBytes = new Uint8Array(0);
class DocprocFileChunks {
  constructor(source) {
    this.source = source; this.length = source.length; this.chunks = new Map();
    this.hotStart = -1; this.hotEnd = -1; this.hot = docprocNoBytes;
  }
  byteAt(pos) {
    if (pos < 0 || pos >= this.length) return undefined;
    const index = Math.floor(pos / ${FILE_CHUNK_BYTES});
    let chunk = this.chunks.get(index);
    if (chunk) { this.chunks.delete(index); this.chunks.set(index, chunk); }
    else {
      chunk = this.source.read(index * ${FILE_CHUNK_BYTES}, ${FILE_CHUNK_BYTES});
      this.chunks.set(index, chunk);
      if (this.chunks.size > ${FILE_CHUNKS_KEPT}) this.chunks.delete(this.chunks.keys().next().value);
    }
    this.hotStart = index * ${FILE_CHUNK_BYTES}; this.hotEnd = this.hotStart + chunk.length; this.hot = chunk;
    return chunk[pos - this.hotStart];
  }
  copy(begin, end) {
    begin = Math.max(0, begin); end = Math.min(end, this.length);
    return end > begin ? this.source.read(begin, end - begin) : new Uint8Array(0);
  }
}
class DocprocFileStream extends Stream {
  constructor(file, start, length, dict) {
    super(docprocNoBytes, 0, 0, dict);
    this.file = file;
    this.start = start || 0;
    this.pos = this.start;
    this.end = start + length || file.length;
  }
  get docprocView() { return true; }
  getByte() {
    const pos = this.pos;
    if (pos >= this.end) return -1;
    this.pos = pos + 1;
    const file = this.file;
    return pos >= file.hotStart && pos < file.hotEnd ? file.hot[pos - file.hotStart] : file.byteAt(pos);
  }
  getBytes(length) {
    const pos = this.pos;
    const endPos = !length ? this.end : Math.min(pos + length, this.end);
    this.pos = endPos;
    return this.file.copy(pos, endPos);
  }
  getByteRange(begin, end) {
    return this.file.copy(Math.max(0, begin), Math.min(end, this.end));
  }
  makeSubStream(start, length, dict = null) {
    if (Number.isInteger(length) && length >= 0) {
      const copy = this.file.copy(start, start + length);
      return new Stream(copy, 0, length, dict);
    }
    return new DocprocFileStream(this.file, start, length, dict);
  }
  clone() {
    return new DocprocFileStream(this.file, this.start, this.length, this.dict?.clone());
  }
}
function docprocFileStreamOf(source) {
  const open = globalThis.docprocFileSources;
  if (!open || !(source instanceof Uint8Array) || source.length > 64) return null;
  const found = open.get(String.fromCharCode.apply(null, source));
  return found ? new DocprocFileStream(new DocprocFileChunks(found), 0, undefined, null) : null;
}
globalThis.docprocFileStreams = true;
`;

export const FILE_STREAM: Patch[] = [
  ["class NullStream extends Stream {\n  constructor() {\n    super(new Uint8Array(0));\n  }\n}\n", FILE_STREAM_CLASS],
  [
    "    const stream = new Stream(args.source);\n    this.pdfDocument = new PDFDocument(this, stream);",
    "    const stream = docprocFileStreamOf(args.source) ?? new Stream(args.source);\n    this.pdfDocument = new PDFDocument(this, stream);",
  ],
];
