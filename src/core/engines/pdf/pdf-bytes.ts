/**
 * A PDF's bytes held once (issue 34). pdf.js parses in its own worker thread, and a long file is read by two workers
 * at once (src/core/convert/pdf.ts): copied into each, a 264 MB file (2,000 pages whose copies embed their own CID
 * fonts) cost 264 MB per worker on top of the run's own copy. Bytes in a SharedArrayBuffer are posted to a worker
 * without a copy: every worker and the run read the same memory. pdf.js only reads a document's bytes. A PDF of
 * FILE_BACKED_MIN_BYTES or more is not held at all: left in its file (a SourceFile, src/core/source-data.ts), read by
 * its workers from the file (pdfjs-file-stream.ts), since held once it still made the whole file part of the run's
 * memory, and held mapped for the run it still sized the main thread's heap (JavaScriptCore counts the mapping).
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { DocprocError } from "../../errors.ts";
import { HEAD_BYTES, isSourceFile, type FileIdentity, type SourceData, type SourceFile } from "../../source-data.ts";

/** Below this size a copy per worker costs less than it is worth thinking about; larger PDFs are read shared. */
export const SHARED_MIN_BYTES = 1024 * 1024;

export const isShared = (data: Uint8Array): boolean => data.buffer instanceof SharedArrayBuffer;

/**
 * From this size on a PDF is not read into memory at all: the run keeps its first bytes and its identity, the pdf.js
 * workers read the file themselves, a few chunks at a time (pdfjs-file-stream.ts, pdf-file-source.ts), and the
 * readers of the whole content map it for their read (SourceFile.open).
 */
// 32 MiB (64 until h-filed): held, the file would decide the run's memory and its growth with the pages (2,000-page
// CID file, 264 MB: 718-985 MB held; 2,000 pages of qpdf object streams, 94 MiB: +50 MB of the +33% from 1,000
// pages; Ghostscript's 2,000 pages, 36 MiB). Read from the file, pdf.js's thread once took ~23% more CPU on CID
// fonts (dictionaries a getByte call a byte); with chunk windows tokenised by the lexer's fast path
// (pdfjs-file-stream.ts) its 500 pages take the same as held (2.57-2.81 against 2.58-2.67 CPU-s, load ~5), the
// other shapes too (docs/benchmarks.md, h-filed).
export const FILE_BACKED_MIN_BYTES = 32 * 1024 * 1024;

export type { FileIdentity } from "../../source-data.ts";

/** The file a source was left in (readSourceFile), when its workers read the file instead of bytes. */
export const fileBackingOf = (data: SourceData): FileIdentity | undefined =>
  isSourceFile(data) ? data.identity : undefined;

/**
 * The SHA-256 of `data` in hex. A source left in its file is hashed by reading the file in chunks (never whole in
 * memory). When it has changed since, what is hashed is what it holds now.
 */
export function contentSha256(data: SourceData): string {
  const hash = createHash("sha256");
  if (!isSourceFile(data)) return hash.update(data).digest("hex");
  const fd = openSync(data.identity.path, "r");
  try {
    const chunk = new Uint8Array(1024 * 1024);
    for (let at = 0, n = 1; n > 0; at += n) {
      n = readSync(fd, chunk, 0, chunk.length, at);
      hash.update(chunk.subarray(0, n));
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/** Bytes copied for pdf.js workers in this process (shared copies and per-worker copies): tests count them. */
let copied = 0;
export const bytesCopiedForWorkers = (): number => copied;

/** The bytes in shared memory: `data` itself when it is there already, else one copy of it. */
export function sharedBytes(data: Uint8Array): Uint8Array {
  if (isShared(data)) return data;
  const out = new Uint8Array(new SharedArrayBuffer(data.byteLength));
  out.set(data);
  copied += data.byteLength;
  return out;
}

/** A worker's own copy of small bytes outside shared memory (handed over by transfer). */
export function workerCopy(data: Uint8Array): Uint8Array {
  copied += data.byteLength;
  return data.slice();
}

/**
 * A source file's bytes, read once: a PDF (`%PDF-` in its first KiB, as pdf.js looks for it) of
 * FILE_BACKED_MIN_BYTES or more is left in its file (a SourceFile: its workers read the file, the few readers of the
 * whole content open it when they run); one of SHARED_MIN_BYTES or more lands in shared memory, so its pdf.js
 * workers need no copies of their own; any other file is read as usual. Rejects like Bun.file(path).bytes() for a
 * missing or unreadable file.
 *
 * A file left in its file MUST NOT change while it is processed: its readers fail with invalid_input when it did
 * (`docproc process` and `watch` read files that are settled).
 */
export async function readSourceFile(path: string, opts: { fileBackedMin?: number } = {}): Promise<SourceData> {
  const fileBackedMin = opts.fileBackedMin ?? FILE_BACKED_MIN_BYTES;
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    const size = info.size;
    if (size < Math.min(SHARED_MIN_BYTES, fileBackedMin)) return await Bun.file(path).bytes();
    const head = new Uint8Array(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!Buffer.from(head.buffer, 0, Math.min(bytesRead, 1024)).includes("%PDF-")) return await Bun.file(path).bytes();
    if (size >= fileBackedMin && bytesRead === head.length) {
      return new LocalSourceFile(
        { path: resolve(path), dev: info.dev, ino: info.ino, size, mtimeMs: info.mtimeMs },
        head,
      );
    }
    const out = new Uint8Array(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead: n } = await handle.read(out, at, Math.min(size - at, 16 * 1024 * 1024), at);
      if (n === 0) break; // the file shrank meanwhile: what was there is what the run reads
      at += n;
    }
    return at === size ? out : out.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** Whole-content opens of sources left in their files in this process: tests count them. */
let opens = 0;
export const sourceFileOpens = (): number => opens;

/** A local file: opened by mapping it (pages come into memory only where the reader reads), after checking it. */
class LocalSourceFile implements SourceFile {
  readonly byteLength: number;

  constructor(
    readonly identity: FileIdentity,
    readonly head: Uint8Array,
  ) {
    this.byteLength = identity.size;
  }

  open(): Uint8Array {
    const id = this.identity;
    let mapped: Uint8Array | null = null;
    try {
      const info = statSync(id.path);
      if (info.dev === id.dev && info.ino === id.ino && info.size === id.size && info.mtimeMs === id.mtimeMs)
        mapped = Bun.mmap(id.path, { shared: false });
    } catch {
      mapped = null;
    }
    if (mapped?.byteLength !== id.size)
      throw new DocprocError("invalid_input", `${id.path} changed while it was being read`, { stage: "convert" });
    opens++;
    return mapped;
  }
}
