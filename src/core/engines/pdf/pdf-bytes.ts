/**
 * A PDF's bytes held once (issue 34). pdf.js parses in its own worker thread, and a long file is read by two workers
 * at once (src/core/convert/pdf.ts): copied into each, a 264 MB file (2,000 pages whose copies embed their own CID
 * fonts) cost 264 MB per worker on top of the run's own copy. Bytes in a SharedArrayBuffer are posted to a worker
 * without a copy: every worker and the run read the same memory. pdf.js only reads a document's bytes. A PDF of
 * FILE_BACKED_MIN_BYTES or more is not held at all: mapped here, read by its workers from the file
 * (pdfjs-file-stream.ts), since held once it still made the whole file part of the run's memory.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";

/** Below this size a copy per worker costs less than it is worth thinking about; larger PDFs are read shared. */
export const SHARED_MIN_BYTES = 1024 * 1024;

export const isShared = (data: Uint8Array): boolean => data.buffer instanceof SharedArrayBuffer;

/**
 * From this size on a PDF is not read into memory at all: the main thread maps the file (pages of it come into
 * memory only where something reads them: the format sniffing its first bytes) and the pdf.js workers read the file
 * themselves, a few chunks at a time (pdfjs-file-stream.ts, pdf-file-source.ts).
 */
// 32 MiB (64 until h-filed): held, the file would decide the run's memory and its growth with the pages (2,000-page
// CID file, 264 MB: 718-985 MB held; 2,000 pages of qpdf object streams, 94 MiB: +50 MB of the +33% from 1,000
// pages; Ghostscript's 2,000 pages, 36 MiB). Read from the file, pdf.js's thread once took ~23% more CPU on CID
// fonts (dictionaries a getByte call a byte); with chunk windows tokenised by the lexer's fast path
// (pdfjs-file-stream.ts) its 500 pages take the same as held (2.57-2.81 against 2.58-2.67 CPU-s, load ~5), the
// other shapes too (docs/benchmarks.md, h-filed).
export const FILE_BACKED_MIN_BYTES = 32 * 1024 * 1024;

/** Which file mapped bytes come from, as the worker checks it before reading it. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const fileBacked = new WeakMap<Uint8Array, FileIdentity>();

/** The file `data` maps (readSourceFile), when its workers read the file instead of the bytes. */
export const fileBackingOf = (data: Uint8Array): FileIdentity | undefined => fileBacked.get(data);

/**
 * The SHA-256 of `data` in hex. A mapped file is hashed by reading it in chunks: hashing the mapping would bring the
 * whole file into the process's memory for as long as the mapping lives (the run). When the file is no longer the
 * one mapped, the mapping itself is hashed.
 */
export function contentSha256(data: Uint8Array): string {
  const file = fileBackingOf(data);
  const hash = createHash("sha256");
  if (!file) return hash.update(data).digest("hex");
  let fd: number | null = null;
  try {
    fd = openSync(file.path, "r");
    const info = fstatSync(fd);
    if (info.dev !== file.dev || info.ino !== file.ino || info.size !== file.size || info.mtimeMs !== file.mtimeMs)
      return createHash("sha256").update(data).digest("hex");
    const chunk = new Uint8Array(1024 * 1024);
    let at = 0;
    for (let n = 1; at < file.size && n > 0; at += n) {
      n = readSync(fd, chunk, 0, Math.min(chunk.length, file.size - at), at);
      hash.update(chunk.subarray(0, n));
    }
    return at === file.size ? hash.digest("hex") : createHash("sha256").update(data).digest("hex");
  } catch {
    return createHash("sha256").update(data).digest("hex");
  } finally {
    if (fd !== null) closeSync(fd);
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
 * FILE_BACKED_MIN_BYTES or more is mapped, not read (its workers read the file); one of SHARED_MIN_BYTES or more
 * lands in shared memory, so its pdf.js workers need no copies of their own; any other file is read as usual.
 * Rejects like Bun.file(path).bytes() for a missing or unreadable file.
 *
 * A mapped file MUST NOT be truncated while it is processed (reading past its new end stops the process); `docproc
 * process` and `watch` read files that are settled.
 */
export async function readSourceFile(path: string, opts: { fileBackedMin?: number } = {}): Promise<Uint8Array> {
  const fileBackedMin = opts.fileBackedMin ?? FILE_BACKED_MIN_BYTES;
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    const size = info.size;
    if (size < Math.min(SHARED_MIN_BYTES, fileBackedMin)) return await Bun.file(path).bytes();
    const head = new Uint8Array(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!Buffer.from(head.buffer, 0, bytesRead).includes("%PDF-")) return await Bun.file(path).bytes();
    if (size >= fileBackedMin) {
      const mapped = Bun.mmap(path, { shared: false });
      const identity = { path: resolve(path), dev: info.dev, ino: info.ino, size, mtimeMs: info.mtimeMs };
      if (mapped.byteLength === size) {
        fileBacked.set(mapped, identity);
        return mapped;
      }
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
