/**
 * File descriptors a pdf.js worker holds for documents read from their files (pdf-file-source.ts), in a table
 * shared with the main thread. Descriptors belong to the process, not the thread: a worker terminated mid-request
 * (a timeout, pdf-host.ts) never runs its own close, so the host closes whatever the table still lists once the
 * worker has stopped. A table in shared memory (not a message) because a worker stuck in pdf.js answers nothing,
 * and the descriptor may have been opened just before it got stuck.
 */
import { closeSync } from "node:fs";

/** Documents one worker may read from their files at once; more are read, just not tracked (see noteOpened). */
const SLOTS = 32;
const FREE = -1;

export function newFdTable(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT)).fill(FREE);
}

// Worker side: the table its host sent first (op "fds"); none in a worker started without one (tests).
let table: Int32Array | null = null;

export function adoptFdTable(shared: Int32Array): void {
  table = shared;
}

export function noteFdOpened(fd: number): void {
  if (!table) return;
  for (let i = 0; i < table.length; i++) if (Atomics.compareExchange(table, i, FREE, fd) === FREE) return;
}

export function noteFdClosed(fd: number): void {
  if (!table) return;
  for (let i = 0; i < table.length; i++) if (Atomics.compareExchange(table, i, fd, FREE) === fd) return;
}

/**
 * Main side, after the worker stopped: closes the descriptors it left open; returns how many. MUST NOT run while
 * the worker may still read them (a closed number can be reused by another file).
 */
export function closeLeftFds(shared: Int32Array): number {
  let closed = 0;
  for (let i = 0; i < shared.length; i++) {
    const fd = Atomics.exchange(shared, i, FREE);
    if (fd === FREE) continue;
    try {
      closeSync(fd);
      closed++;
    } catch {
      // already closed (EBADF): nothing left to release
    }
  }
  return closed;
}
