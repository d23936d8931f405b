/**
 * Worker side of a PDF read from its file (pdfjs-file-stream.ts): the worker opens the file the main thread mapped
 * (pdf-bytes.ts), checks it is still the same file (device, inode, size, modification time), and registers a reader
 * under a token; pdf.js is then handed the token's marker instead of the bytes. One file descriptor per open
 * document, closed with it.
 *
 * When the file-stream patch is not in (a pdf.js whose anchors moved), the file is read whole and handed over as
 * before: only memory differs.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { DocprocError } from "../../errors.ts";
import type { FileIdentity } from "./pdf-bytes.ts";
import { noteFdClosed, noteFdOpened } from "./pdf-worker-fds.ts";

interface FileSource {
  length: number;
  read(pos: number, length: number): Uint8Array;
  /** Fills `out` from `pos`; how many bytes it read (fewer at the end of the file). */
  readInto(pos: number, out: Uint8Array): number;
}

const sources = new Map<string, FileSource>();
(globalThis as Record<string, unknown>).docprocFileSources = sources;

/**
 * What reading documents from their files cost this worker, as counters (tests check them): reads of the file and
 * bytes read, and bytes pdf.js took one getByte call at a time instead of from a window's bytes (pdfjs-file-stream.ts).
 */
export const fileReadCounts = { reads: 0, bytes: 0, byteCalls: 0 };
(globalThis as Record<string, unknown>).docprocFileCounts = fileReadCounts;

/** Open documents' tokens and descriptors, by document id. */
const byDoc = new Map<number, { token: string; fd: number }>();
let nextToken = 1;

/** Open file descriptors for documents read from their files (tests check they are closed). */
export const openFileSources = (): number => byDoc.size;

/** What pdf.js opens for document `docId`: a marker naming the registered file, or the file's bytes. */
export function fileSourceData(docId: number, file: FileIdentity): Uint8Array {
  closeFileSource(docId);
  const patched = (globalThis as { docprocFileStreams?: boolean }).docprocFileStreams === true;
  if (!patched) return checked(file, () => new Uint8Array(readFileSync(file.path)));
  const fd = openSync(file.path, "r");
  noteFdOpened(fd);
  try {
    const info = fstatSync(fd);
    if (info.dev !== file.dev || info.ino !== file.ino || info.size !== file.size || info.mtimeMs !== file.mtimeMs)
      throw changed(file);
  } catch (err) {
    noteFdClosed(fd);
    closeSync(fd);
    throw err;
  }
  const token = `%docproc-file:${nextToken++}`;
  sources.set(token, {
    length: file.size,
    read: (pos, length) => readAt(fd, pos, length),
    readInto: (pos, out) => readInto(fd, pos, out),
  });
  byDoc.set(docId, { token, fd });
  return new Uint8Array(Buffer.from(token, "latin1"));
}

export function closeFileSource(docId: number): void {
  const open = byDoc.get(docId);
  if (!open) return;
  byDoc.delete(docId);
  sources.delete(open.token);
  noteFdClosed(open.fd);
  closeSync(open.fd);
}

/** `length` bytes from `pos` (fewer at the end of the file), in an array of their own. */
function readAt(fd: number, pos: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const at = readInto(fd, pos, out);
  return at === length ? out : out.slice(0, at);
}

/** Fills `out` from `pos` (chunks reuse their arrays: pdfjs-file-stream.ts). */
function readInto(fd: number, pos: number, out: Uint8Array): number {
  let at = 0;
  while (at < out.length) {
    const n = readSync(fd, out, at, out.length - at, pos + at);
    if (n === 0) break;
    at += n;
  }
  fileReadCounts.reads++;
  fileReadCounts.bytes += at;
  return at;
}

function checked(file: FileIdentity, read: () => Uint8Array): Uint8Array {
  const data = read();
  if (data.byteLength !== file.size) throw changed(file);
  return data;
}

const changed = (file: FileIdentity) =>
  new DocprocError("invalid_input", `${file.path} changed while it was being read`, { stage: "convert" });
