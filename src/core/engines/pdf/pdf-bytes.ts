/**
 * A PDF's bytes held once (issue 34). pdf.js parses in its own worker thread, and a long file is read by two workers
 * at once (src/core/convert/pdf.ts): copied into each, a 264 MB file (2,000 pages whose copies embed their own CID
 * fonts) cost 264 MB per worker on top of the run's own copy. Bytes in a SharedArrayBuffer are posted to a worker
 * without a copy: every worker and the run read the same memory. pdf.js only reads a document's bytes.
 */
import { open } from "node:fs/promises";

/** Below this size a copy per worker costs less than it is worth thinking about; larger PDFs are read shared. */
export const SHARED_MIN_BYTES = 1024 * 1024;

export const isShared = (data: Uint8Array): boolean => data.buffer instanceof SharedArrayBuffer;

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
 * A source file's bytes, read once: a PDF of SHARED_MIN_BYTES or more (`%PDF-` in its first KiB, as pdf.js looks for
 * it) lands in shared memory, so its pdf.js workers need no copies of their own; any other file is read as usual.
 * Rejects like Bun.file(path).bytes() for a missing or unreadable file.
 */
export async function readSourceFile(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    if (size < SHARED_MIN_BYTES) return await Bun.file(path).bytes();
    const head = new Uint8Array(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!Buffer.from(head.buffer, 0, bytesRead).includes("%PDF-")) return await Bun.file(path).bytes();
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
