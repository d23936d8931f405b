/**
 * The data-directory lock: at most one `docproc process --data` or `docproc watch` works on a data directory.
 *
 * How: an SQLite `BEGIN EXCLUSIVE` transaction held open on `<data>/lock.sqlite` (rollback journal, not WAL) for
 * the whole run. SQLite takes a POSIX advisory lock on the file, and the OS drops that lock when the process ends
 * in ANY way, including SIGKILL, so a killed run never leaves a stale lock and no PID guessing is involved (a PID
 * file with a liveness check can be fooled by PID reuse, and two runs taking over one stale file race each other).
 * The holder also writes `<data>/lock-owner.json` (pid, command, start time) so the refused run can say who holds it.
 *
 * MUST fail fast (no waiting) with DocprocError("locked") → exit code 3; MUST release on `release()` and on exit.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { DocprocError } from "../../core/errors";

export const LOCK_FILE = "lock.sqlite";
export const LOCK_OWNER_FILE = "lock-owner.json";

export interface LockOwner {
  pid: number;
  host: string;
  command: string;
  started_at: string;
}

export interface DataDirLock {
  dir: string;
  release(): void;
}

export function acquireDataDirLock(dataDir: string, command: string): DataDirLock {
  const dir = path.resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new DocprocError("invalid_input", `cannot create the data directory ${dir}: ${(err as Error).message}`);
  }
  const db = new Database(path.join(dir, LOCK_FILE), { create: true });
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("BEGIN EXCLUSIVE");
  } catch (err) {
    db.close();
    if (/locked|busy/i.test((err as Error).message)) throw lockedError(dir);
    throw new DocprocError("internal", `cannot lock the data directory ${dir}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const ownerFile = path.join(dir, LOCK_OWNER_FILE);
  const owner: LockOwner = { pid: process.pid, host: hostname(), command, started_at: new Date().toISOString() };
  writeFileSync(ownerFile, JSON.stringify(owner) + "\n");
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    rmSync(ownerFile, { force: true });
    try {
      db.exec("ROLLBACK");
    } finally {
      db.close();
    }
  };
  process.on("exit", release);
  return { dir, release };
}

function lockedError(dir: string): DocprocError {
  let who = "another docproc run";
  try {
    const owner = JSON.parse(readFileSync(path.join(dir, LOCK_OWNER_FILE), "utf8")) as LockOwner;
    who = `docproc ${owner.command} (pid ${owner.pid} on ${owner.host}, since ${owner.started_at})`;
  } catch {
    // The owner file is written just after the lock is taken; a refused run may read it a moment too early.
  }
  return new DocprocError("locked", `the data directory ${dir} is in use by ${who}; try again when it has finished`, {
    retryable: true,
    details: { data_dir: dir },
  });
}
