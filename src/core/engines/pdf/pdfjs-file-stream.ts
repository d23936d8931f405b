/**
 * A large PDF read from its file, not from memory (issue 34, memory bounded by design). pdf.js reads a document
 * from one array of all its bytes; held whole, a 2,000-page file whose copies embed their own CID fonts took its
 * 264 MB of the process's memory for the whole run (and the growth from 1,000 to 2,000 pages followed the file
 * size on every joined shape). The worker now hands pdf.js, for a file the main thread mapped (pdf-bytes.ts), a
 * base stream that reads the file where pdf.js asks, through cached chunks (each also holding the first bytes of the
 * next, so an object starting near a chunk's end is still inside it):
 * - an object fetched by its offset (`makeSubStream(offset)` without a length: "from here on") is a window: a plain
 *   pdf.js Stream over its chunk's array (no copy), whose positions count from the chunk's start. The lexer reads
 *   its bytes by its fast path (byteKind 3, pdfjs-lexer-patches.ts) as it reads a file held in memory; past the end
 *   of the array, getByte grows the window with a copy from the file. Through getByte a byte at a time, a file of
 *   CID fonts (long width arrays) took ~15-23% more pdf.js CPU than held (docs/benchmarks.md, h-filed);
 * - a stream object (`makeSubStream(start, length)`: content, fonts, images, object streams) becomes a plain pdf.js
 *   `Stream` over its chunk's array from its offset (as pdf.js makes sub-streams of a held file), or over a copy of
 *   its bytes when it spans chunks, garbage once pdf.js lets go of it (the same end for a length past the file);
 * - `getBytes`, `getByteRange` and `peekBytes` return copies. Nothing writes into a chunk: pdf.js only reads.
 * Positions of the file's own stream are the file's, as in the whole array, so offsets, `start` and `moveStart` mean
 * what they did; a window's are its chunk's, consistent within it (pdf.js takes sub-streams of it by them).
 *
 * The worker registers the file under a token and opens the document with a small marker instead of its bytes
 * (pdf-file-source.ts); `docprocFileStreams` tells it that this patch is in (else it reads the file whole).
 * Views have no `bytes` of their own: the font-sharing key (pdfjs-font-sharing.ts) skips them; stream objects, the
 * only thing it hashes, are copies.
 */
import type { Patch } from "./pdfjs-patch.ts";

/**
 * Bytes read from the file at a time, and how many such chunks the file keeps (~10 MB). 64 KiB chunks, 128 kept:
 * the 500-page Ghostscript file (9 MB) read once and its 2,000 pages 2.3 times (256 KiB x 16: 18 times, each
 * chunk re-read being garbage for the worker's collector).
 */
export const FILE_CHUNK_BYTES = 64 * 1024;
export const FILE_CHUNKS_KEPT = 128;
/** Each chunk also holds the first bytes of the next, so that an object starting near its end is read from it. */
export const FILE_CHUNK_OVERLAP = 16 * 1024;

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
    this.counts = globalThis.docprocFileCounts ?? { byteCalls: 0 };
  }
  byteAt(pos) {
    if (pos < 0 || pos >= this.length) return undefined;
    const index = Math.floor(pos / ${FILE_CHUNK_BYTES});
    let chunk = this.chunks.get(index);
    if (chunk) { this.chunks.delete(index); this.chunks.set(index, chunk); }
    else {
      if (this.chunks.size >= ${FILE_CHUNKS_KEPT}) this.chunks.delete(this.chunks.keys().next().value);
      const into = new Uint8Array(${FILE_CHUNK_BYTES + FILE_CHUNK_OVERLAP});
      const n = this.source.readInto(index * ${FILE_CHUNK_BYTES}, into);
      chunk = n === into.length ? into : into.subarray(0, n);
      this.chunks.set(index, chunk);
    }
    this.hotStart = index * ${FILE_CHUNK_BYTES}; this.hotEnd = this.hotStart + chunk.length; this.hot = chunk;
    return chunk[pos - this.hotStart];
  }
  streamOf(begin, length, dict) {
    const end = Math.min(begin + length, this.length);
    if (length > 0 && begin >= 0 && end > begin && this.sameChunk(begin, end)) {
      this.byteAt(begin);
      return new Stream(this.hot, begin - this.hotStart, length, dict);
    }
    return new Stream(this.copy(begin, begin + length), 0, length, dict);
  }
  sameChunk(begin, end) {
    return end <= Math.floor(begin / ${FILE_CHUNK_BYTES}) * ${FILE_CHUNK_BYTES} + ${FILE_CHUNK_BYTES + FILE_CHUNK_OVERLAP};
  }
  copy(begin, end) {
    begin = Math.max(0, begin); end = Math.min(end, this.length);
    if (end <= begin) return new Uint8Array(0);
    if (!this.sameChunk(begin, end)) return this.source.read(begin, end - begin);
    this.byteAt(begin);
    return this.hot.slice(begin - this.hotStart, end - this.hotStart);
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
    file.counts.byteCalls++;
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
    if (Number.isInteger(length) && length >= 0) return this.file.streamOf(start, length, dict);
    return new DocprocFileWindow(this.file, start, dict);
  }
  clone() {
    return new DocprocFileStream(this.file, this.start, this.length, this.dict?.clone());
  }
}
class DocprocFileWindow extends Stream {
  constructor(file, at, dict) {
    at = Math.max(0, Math.min(at, file.length));
    const inChunk = at < file.length;
    if (inChunk) file.byteAt(at);
    super(inChunk ? file.hot : docprocNoBytes, inChunk ? at - file.hotStart : 0, 0, dict);
    this.file = file;
    this.base = inChunk ? file.hotStart : at;
    this.pos = this.start;
    this.end = file.length - this.base;
  }
  get docprocView() { return true; }
  get docprocWindow() { return true; }
  grow(need) {
    const length = Math.min(this.end, Math.max(need, this.bytes.length + ${FILE_CHUNK_BYTES}));
    this.bytes = this.file.copy(this.base, this.base + length);
  }
  getByte() {
    const pos = this.pos;
    if (pos >= this.end) return -1;
    if (pos >= this.bytes.length) this.grow(pos + 1);
    this.file.counts.byteCalls++;
    this.pos = pos + 1;
    return this.bytes[pos];
  }
  getBytes(length) {
    const pos = this.pos;
    const endPos = !length ? this.end : Math.min(pos + length, this.end);
    this.pos = endPos;
    return this.file.copy(this.base + pos, this.base + endPos);
  }
  getByteRange(begin, end) {
    return this.file.copy(this.base + Math.max(0, begin), this.base + Math.min(end, this.end));
  }
  makeSubStream(start, length, dict = null) {
    if (Number.isInteger(length) && length >= 0) return this.file.streamOf(this.base + start, length, dict);
    return new DocprocFileWindow(this.file, this.base + start, dict);
  }
  clone() {
    const out = new DocprocFileWindow(this.file, this.base + this.start, this.dict?.clone());
    out.end = Math.min(out.end, out.start + this.end - this.start);
    return out;
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
