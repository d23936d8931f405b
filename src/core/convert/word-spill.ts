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

const released = new FinalizationRegistry<Segment>((segment) => {
  spilledPages--;
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
  const size = boxes.length + lines.length;
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
      writeSync(segment.fd, boxes, 0, boxes.length, offset);
      writeSync(segment.fd, lines, 0, lines.length, offset + boxes.length);
      segment.written += size;
    } else {
      segment.pending.set(boxes, segment.pendingBytes);
      segment.pending.set(lines, segment.pendingBytes + boxes.length);
      segment.pendingBytes += size;
    }
    segment.live++;
    spilledPages++;
    written++;
    const spilled = { segment, offset, count: packed.lines.length };
    released.register(owner, segment);
    return spilled;
  } catch {
    return null;
  }
}

/** The packed words written by `spill`, read back (equal boxes and lines, new arrays). */
export function readSpilled(spilled: SpilledWords): PackedWords {
  const { segment, offset, count } = spilled;
  const buffer = new ArrayBuffer(count * 36);
  const bytes = new Uint8Array(buffer);
  if (offset >= segment.written) {
    const from = offset - segment.written;
    bytes.set(segment.pending.subarray(from, from + bytes.length));
  } else {
    for (let at = 0; at < bytes.length; ) {
      const n = readSync(segment.fd, bytes, at, bytes.length - at, offset + at);
      if (n === 0) throw new Error("the words of a page were lost from their temporary file");
      at += n;
    }
  }
  return { boxes: new Float64Array(buffer, 0, count * 4), lines: new Int32Array(buffer, count * 32, count) };
}
