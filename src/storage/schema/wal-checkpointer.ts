/**
 * WAL checkpoints off the committing thread, for the long-running processes (`serve`, `worker`).
 *
 * Why: SQLite checkpoints automatically inside the commit that takes the WAL past `wal_autocheckpoint` pages, on
 * the thread that commits, i.e. the server's HTTP thread. A 500-page transaction's results (~16 MB with the review
 * state) made its final commit take ~40 ms instead of ~8, all of it before the client heard the transaction was
 * done, and every request queued behind it. Here a thread of its own (checkpoint-thread.ts, its own connection)
 * runs PASSIVE checkpoints a few times a second, and the committing connection's own threshold is raised to
 * `SAFETY_NET_PAGES`: it then checkpoints itself only if that thread cannot keep up or is gone.
 *
 * Durability is unchanged: a commit is in the WAL either way (synchronous = NORMAL), a checkpoint only copies it
 * into the main file. MUST be stopped before the database closes (`Db.close` of openDatabase does it).
 */
import type { Database } from "bun:sqlite";

/** ~64 MB of 4 KiB pages: the WAL's bound if the checkpoint thread falls behind. */
export const SAFETY_NET_PAGES = 16_384;
const EVERY_MS = 200;
const threadUrl = new URL("./checkpoint-thread.ts", import.meta.url);

export interface WalCheckpointer {
  /** Asks the thread to close its connection and end; returns at once (the thread holds nothing up). */
  stop(): void;
}

export function startWalCheckpointer(db: Database, file: string, everyMs = EVERY_MS): WalCheckpointer {
  db.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  // The name is the thread's name in /proc (the serve benchmark's CPU per thread).
  const worker = new Worker(threadUrl, { workerData: { file, everyMs }, name: "docproc-wal" } as WorkerOptions);
  (worker as Worker & { unref(): void }).unref();
  // A thread that cannot start or fails leaves the checkpoints to the connection's safety net: nothing is lost.
  worker.onerror = () => {};
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage({ type: "stop" });
    },
  };
}
