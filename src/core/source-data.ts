/**
 * A source's bytes: in memory, or left in their file (issue 34). A large PDF is not read or kept mapped for the run:
 * JavaScriptCore counts a live ArrayBuffer's bytes (a mapping too, untouched or not) as its heap's extra memory and
 * lets the heap grow in proportion before it collects, so a 252 MiB file held for the run made the main thread's heap
 * grow with the file (2,000 CID pages: 349 MB main heap, 270 of it the mapping; docs/benchmarks.md, h-rss4). Its
 * pdf.js workers read the file themselves (`identity`); the few readers of the whole file (repair, PDF and e-invoice
 * exports) open it when they run and drop it after.
 */

/** Which file a source's bytes are, as a worker checks it before reading it. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** A source left in its file (made by readSourceFile, src/core/engines/pdf/pdf-bytes.ts). */
export interface SourceFile {
  readonly identity: FileIdentity;
  /** The file's size. */
  readonly byteLength: number;
  /** The file's first bytes (up to HEAD_BYTES): enough to tell its format. */
  readonly head: Uint8Array;
  /**
   * The whole content, for one reader. MUST NOT be kept past that reader's work: it is the memory the handle saves.
   * Throws DocprocError when the file is no longer the one identified (changed or gone).
   */
  open(): Uint8Array;
}

export type SourceData = Uint8Array | SourceFile;

/** How much of a file a SourceFile keeps: format sniffing reads the first KiB (sniff.ts), the tests above it 8 KiB. */
export const HEAD_BYTES = 8 * 1024;

export const isSourceFile = (data: SourceData): data is SourceFile => !(data instanceof Uint8Array);

/** The whole content: the bytes themselves, or the file opened for this reader (not to be kept, see `open`). */
export const wholeBytes = (data: SourceData): Uint8Array => (data instanceof Uint8Array ? data : data.open());

/** The first bytes, enough to tell the format (sniff.ts reads 1 KiB). */
export const headBytes = (data: SourceData): Uint8Array => (data instanceof Uint8Array ? data : data.head);
