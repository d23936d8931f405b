/**
 * Packed words on disk (issue 34, memory bounded by design): the boxes and line numbers of a text-layer page's words
 * (~36 bytes a word, ~7 KB an invoice page) written to a temporary file, read back when the page's words are asked
 * for again. page-words.ts keeps the packed words of the most recent pages in memory and spills the older ones here,
 * so what a run of N pages holds of its words no longer grows with N (the page texts stay in memory).
 *
 * - Writes are gathered in a buffer of FLUSH_BYTES and written when it is full (a page's words are a few KB: one
 *   write per page costs more than the copy); a read of words still in the buffer copies them from there.
 * - The file lives in segments of SEGMENT_BYTES: each is unlinked as soon as it is created (nothing is left behind
 *   by a process that stops) and closed once every page written into it is collected, so a long-lived process
 *   (serve, watch) does not keep the words of runs that ended.
 * - When no temporary file can be made or written (a read-only or full disk), `spill` returns null and the caller
 *   keeps the words in memory.
 * - Other bytes share the files (`spillBytes`: answers computed ahead, core/page-memo.ts), given back the same way.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PackedWords } from "../engines/pdf/pdf-protocol";

const FLUSH_BYTES = 256 * 1024;
const SEGMENT_BYTES = 32 * 1024 * 1024;

interface Segment {
  fd: number;
  /** Bytes written to the file. */
  written: number;
  /** Bytes gathered after them, not yet written. */
  pending: Uint8Array;
  pendingBytes: number;
  /** Pages' words in this segment not yet collected. */
  live: number;
  open: boolean;
}

/** Where other spilled bytes are: `length` bytes at `offset`. */
export interface SpilledBytes {
  segment: Segment;
  offset: number;
  length: number;
}

/** Where a page's packed words are: `count` words, boxes at `offset` and their lines right after. */
export interface SpilledWords {
  segment: Segment;
  offset: number;
  count: number;
}

let current: Segment | null = null;
let made = 0;
let spilledPages = 0;
let written = 0;

const closeSegment = (segment: Segment) => {
  if (!segment.open) return;
  segment.open = false;
  try {
    closeSync(segment.fd);
  } catch {
    // already closed: nothing holds it
  }
};

/** Held per owner: its segment, and whether it counts as a page's words (spilledPageCount) or other bytes. */
const released = new FinalizationRegistry<{ segment: Segment; page: boolean }>(({ segment, page }) => {
  if (page) spilledPages--;
  if (--segment.live === 0 && segment !== current) closeSegment(segment);
});

/** Pages whose words are on disk and not yet collected, and pages spilled since the process started (tests). */
export const spilledPageCount = (): { live: number; total: number } => ({ live: spilledPages, total: written });

function newSegment(): Segment | null {
  const file = path.join(tmpdir(), `docproc-words-${process.pid}-${++made}-${crypto.randomUUID()}`);
  let fd: number;
  try {
    fd = openSync(file, "wx+", 0o600);
  } catch {
    return null;
  }
  try {
    unlinkSync(file); // the open descriptor keeps the data; the name goes now
  } catch {
    // a system that cannot unlink an open file: it stays until the temporary folder is cleaned
  }
  return { fd, written: 0, pending: new Uint8Array(FLUSH_BYTES), pendingBytes: 0, live: 0, open: true };
}

function flush(segment: Segment): void {
  let at = 0;
  while (at < segment.pendingBytes)
    at += writeSync(segment.fd, segment.pending, at, segment.pendingBytes - at, segment.written + at);
  segment.written += segment.pendingBytes;
  segment.pendingBytes = 0;
}

/**
 * Writes `packed` (its boxes and lines only: texts are the page text's) and returns where it is, registered so the
 * space is given back when `owner` is collected; null when it cannot be written.
 */
export function spill(packed: PackedWords, owner: object): SpilledWords | null {
  const boxes = new Uint8Array(packed.boxes.buffer, packed.boxes.byteOffset, packed.boxes.byteLength);
  const lines = new Uint8Array(packed.lines.buffer, packed.lines.byteOffset, packed.lines.byteLength);
  const at = write([boxes, lines], owner, true);
  if (!at) return null;
  spilledPages++;
  written++;
  return { ...at, count: packed.lines.length };
}

/**
 * Other bytes in the same files (core/page-memo.ts: answers computed ahead, as JSON), given back when `owner` is
 * collected; null when they cannot be written.
 */
export function spillBytes(bytes: Uint8Array, owner: object): SpilledBytes | null {
  const at = write([bytes], owner, false);
  return at && { ...at, length: bytes.length };
}

/** The bytes written by `spillBytes`, read back into a new array. */
export function readSpilledBytes(spilled: SpilledBytes): Uint8Array {
  const bytes = new Uint8Array(spilled.length);
  readInto(spilled, bytes);
  return bytes;
}

function write(parts: Uint8Array[], owner: object, page: boolean): { segment: Segment; offset: number } | null {
  const size = parts.reduce((n, p) => n + p.length, 0);
  try {
    if (current && current.written + current.pendingBytes + size > SEGMENT_BYTES) {
      flush(current);
      const full = current;
      current = null;
      if (full.live === 0) closeSegment(full);
    }
    current ??= newSegment();
    if (!current) return null;
    const segment = current;
    if (segment.pendingBytes + size > segment.pending.length) flush(segment);
    const offset = segment.written + segment.pendingBytes;
    if (size > segment.pending.length) {
      // Larger than the buffer (a page of tens of thousands of words): written at once.
      let at = offset;
      for (const part of parts) at += writeAll(segment.fd, part, at);
      segment.written += size;
    } else {
      for (const part of parts) {
        segment.pending.set(part, segment.pendingBytes);
        segment.pendingBytes += part.length;
      }
    }
    segment.live++;
    released.register(owner, { segment, page });
    return { segment, offset };
  } catch {
    return null;
  }
}

function writeAll(fd: number, bytes: Uint8Array, position: number): number {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, position + at);
  return bytes.length;
}

/** The packed words written by `spill`, read back (equal boxes and lines, new arrays). */
export function readSpilled(spilled: SpilledWords): PackedWords {
  const { count } = spilled;
  const buffer = new ArrayBuffer(count * 36);
  readInto(spilled, new Uint8Array(buffer));
  return { boxes: new Float64Array(buffer, 0, count * 4), lines: new Int32Array(buffer, count * 32, count) };
}

function readInto({ segment, offset }: { segment: Segment; offset: number }, bytes: Uint8Array): void {
  if (offset >= segment.written) {
    const from = offset - segment.written;
    bytes.set(segment.pending.subarray(from, from + bytes.length));
    return;
  }
  for (let at = 0; at < bytes.length; ) {
    const n = readSync(segment.fd, bytes, at, bytes.length - at, offset + at);
    if (n === 0) throw new Error("bytes spilled to a temporary file were lost from it");
    at += n;
  }
}
