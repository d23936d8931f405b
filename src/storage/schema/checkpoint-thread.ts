/**
 * The WAL checkpoint thread (see wal-checkpointer.ts): its own connection to the data directory's SQLite file, a
 * PASSIVE checkpoint every `everyMs` milliseconds. PASSIVE never waits for readers or writers and copies only the
 * frames no reader still needs; with nothing to copy it costs a few microseconds. The message `stop` closes the
 * connection, and the thread ends.
 */
import { Database } from "bun:sqlite";
import { parentPort, workerData } from "node:worker_threads";

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
// Never wait on a lock: a checkpoint that finds the database busy simply runs again at the next tick.
db.exec("PRAGMA busy_timeout = 0");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // SQLITE_BUSY (another connection's checkpoint, a migration) or a vanished file: next tick.
  }
}, everyMs);

parentPort!.on("message", (msg: { type: string }) => {
  if (msg.type !== "stop") return;
  clearInterval(timer);
  try {
    checkpoint.finalize();
    db.close();
  } finally {
    // A worker with a message listener never runs out of work; in a Worker, process.exit ends only the thread.
    process.exit(0);
  }
});
