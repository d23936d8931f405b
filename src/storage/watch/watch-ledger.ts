/**
 * The processed-files ledger of `docproc watch` and `docproc process --data`: one row per file CONTENT (sha256 of
 * the bytes), in `<data>/ledger.sqlite` (bun:sqlite, WAL).
 *
 * Exactly-once rules (the caller holds the data-directory lock, see data-dir-lock.ts, so only one run writes at a time):
 * - a file MUST be claimed (`processing`, with a transaction id) BEFORE any work starts, in one IMMEDIATE
 *   transaction, so two files with the same content are never both taken;
 * - content whose row is `done` or `failed` MUST NOT be taken again unless forced (`--force`);
 * - a `processing` row of another run means that run died mid-file (SIGKILL, power loss): the next run re-takes it
 *   with the SAME transaction id, so the outputs of the interrupted attempt are overwritten, not duplicated;
 * - a file interrupted `maxAttempts` times (it may be what kills the process) ends `failed` instead of looping.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../../core/errors";

export type LedgerStatus = "processing" | "done" | "failed";

export interface LedgerEntry {
  sha256: string;
  status: LedgerStatus;
  transaction_id: string;
  /** The path the content was last seen at. */
  source_path: string;
  /** `<transaction_id>_data.json` written, when there is one. */
  results_path: string | null;
  error: string | null;
  /** Times the content was taken (1 for a file processed once; more after interruptions or --force). */
  attempts: number;
  run_id: string;
  created_at: string;
  updated_at: string;
}

export type ClaimResult =
  | { kind: "claimed"; entry: LedgerEntry; retaken: boolean }
  /** Finished earlier (`done` or `failed`): nothing to do. */
  | { kind: "finished"; entry: LedgerEntry }
  /** The same content is being processed by this run right now (a duplicate dropped meanwhile). */
  | { kind: "in_progress"; entry: LedgerEntry };

export interface ClaimOptions {
  /** Take the content again even when it was finished (`--force`). */
  force?: boolean;
  /** Take content that failed before again (`watch --retry-failed`: the cause, e.g. a full disk, was fixed). */
  retryFailed?: boolean;
  /** How many interrupted attempts before a file is marked failed (default 3). */
  maxAttempts?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS processed_files (
  sha256 TEXT PRIMARY KEY,
  status TEXT NOT NULL CHECK (status IN ('processing', 'done', 'failed')),
  transaction_id TEXT NOT NULL,
  source_path TEXT NOT NULL,
  results_path TEXT,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 1,
  run_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS processed_files_status ON processed_files (status);
-- Content hashes by file identity, so cron runs and rescans do not re-read unchanged files.
CREATE TABLE IF NOT EXISTS file_hashes (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  sha256 TEXT NOT NULL
);
`;

export const LEDGER_FILE = "ledger.sqlite";

export class Ledger {
  /** Identifies this run: a `processing` row with another run id was left behind by a dead run. */
  readonly runId = crypto.randomUUID();

  private constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {}

  static open(dataDir: string, opts: { now?: () => Date } = {}): Ledger {
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, LEDGER_FILE);
    let db: Database;
    try {
      db = new Database(file, { create: true, strict: true });
      db.exec("PRAGMA busy_timeout = 10000");
      db.exec("PRAGMA journal_mode = WAL");
      // FULL: a `done` row MUST survive a power cut once the originals were moved on the strength of it.
      db.exec("PRAGMA synchronous = FULL");
      db.exec(SCHEMA);
    } catch (err) {
      throw new DocprocError("invalid_input", `cannot open the ledger ${file}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    return new Ledger(db, opts.now ?? (() => new Date()));
  }

  lookup(sha256: string): LedgerEntry | null {
    return this.db.query<LedgerEntry, [string]>("SELECT * FROM processed_files WHERE sha256 = ?").get(sha256);
  }

  /** Atomically decides whether this run processes the content; see the rules at the top of the file. */
  claim(sha256: string, sourcePath: string, opts: ClaimOptions = {}): ClaimResult {
    const maxAttempts = opts.maxAttempts ?? 3;
    const tx = this.db.transaction((): ClaimResult => {
      const now = this.now().toISOString();
      const row = this.lookup(sha256);
      if (!row) {
        this.db
          .query(
            "INSERT INTO processed_files (sha256, status, transaction_id, source_path, run_id, created_at, updated_at) VALUES (?, 'processing', ?, ?, ?, ?, ?)",
          )
          .run(sha256, crypto.randomUUID(), sourcePath, this.runId, now, now);
        return { kind: "claimed", entry: this.lookup(sha256)!, retaken: false };
      }
      if (row.status === "processing" && row.run_id === this.runId) return { kind: "in_progress", entry: row };
      const retry = opts.retryFailed === true && row.status === "failed";
      if (row.status !== "processing" && !opts.force && !retry) return { kind: "finished", entry: row };
      const interrupted = row.status === "processing";
      if (interrupted && row.attempts >= maxAttempts && !opts.force) {
        const error = `interrupted ${row.attempts} times while processing (the process was killed each time); not retried`;
        this.db
          .query("UPDATE processed_files SET status = 'failed', error = ?, updated_at = ? WHERE sha256 = ?")
          .run(error, now, sha256);
        return { kind: "finished", entry: this.lookup(sha256)! };
      }
      // Interrupted: same transaction id (outputs overwritten in place). Forced or retried: a new transaction.
      const transactionId = interrupted ? row.transaction_id : crypto.randomUUID();
      this.db
        .query(
          "UPDATE processed_files SET status = 'processing', transaction_id = ?, source_path = ?, results_path = NULL, error = NULL, attempts = attempts + 1, run_id = ?, updated_at = ? WHERE sha256 = ?",
        )
        .run(transactionId, sourcePath, this.runId, now, sha256);
      return { kind: "claimed", entry: this.lookup(sha256)!, retaken: interrupted };
    });
    return tx.immediate();
  }

  /** Records the outcome of a claimed file. Only the run holding the claim may finish it. */
  finish(
    sha256: string,
    outcome: { status: "done" | "failed"; results_path?: string | null; error?: string | null },
  ): void {
    const changed = this.db
      .query(
        "UPDATE processed_files SET status = ?, results_path = ?, error = ?, updated_at = ? WHERE sha256 = ? AND run_id = ? AND status = 'processing'",
      )
      .run(
        outcome.status,
        outcome.results_path ?? null,
        outcome.error ?? null,
        this.now().toISOString(),
        sha256,
        this.runId,
      ).changes;
    if (changed !== 1) throw new DocprocError("conflict", `ledger: ${sha256.slice(0, 12)}… is not claimed by this run`);
  }

  /**
   * sha256 of a file, read from the cache when its path, size, mtime and inode are unchanged since it was hashed
   * (a file rewritten in place with the same size AND mtime would be missed: tools that preserve mtimes, like
   * `rsync -t`, also change the inode when they replace a file). Returns null for a file that cannot be read.
   */
  async hashOf(file: string): Promise<string | null> {
    const abs = path.resolve(file);
    const info = await stat(abs).catch(() => null);
    if (!info?.isFile()) return null;
    const cached = this.db
      .query<{ sha256: string }, [string, number, number, number]>(
        "SELECT sha256 FROM file_hashes WHERE path = ? AND size = ? AND mtime_ms = ? AND ino = ?",
      )
      .get(abs, info.size, info.mtimeMs, info.ino);
    if (cached) return cached.sha256;
    const sha = await hashFile(abs).catch(() => null);
    if (sha === null) return null;
    this.db
      .query("INSERT OR REPLACE INTO file_hashes (path, size, mtime_ms, ino, sha256) VALUES (?, ?, ?, ?, ?)")
      .run(abs, info.size, info.mtimeMs, info.ino, sha);
    return sha;
  }

  /** Every row, oldest first (tests, diagnostics). */
  entries(): LedgerEntry[] {
    return this.db.query<LedgerEntry, []>("SELECT * FROM processed_files ORDER BY created_at, sha256").all();
  }

  close(): void {
    this.db.close();
  }
}

/** sha256 of a file's bytes, hex. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  const reader = Bun.file(file).stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.digest("hex");
}

export function hashBytes(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
