/**
 * `docproc process --data DIR`: the CLI batch runner (src/cli/batch.ts) made cron-safe with the ledger and the lock.
 *
 * MUST take the data-directory lock before looking at any file (two overlapping cron runs: the second exits 3);
 * MUST skip content the ledger has finished (unless `force`), and content listed twice in one run after the first;
 * MUST claim each file just before it is processed (`wrap` claims, runs, records) and record its outcome right
 * after, so a run killed mid-batch leaves only the files in hand to be re-taken.
 */
import path from "node:path";
import { DocprocError } from "../core/errors";
import type { ProgressFn } from "../core/model";
import type { FileRun } from "./file-processor";
import { Ledger, type LedgerEntry } from "../storage/watch/watch-ledger";
import { acquireDataDirLock, type DataDirLock } from "../storage/watch/data-dir-lock";

export interface SkippedFile {
  file: string;
  /** already_processed: the ledger has this content; duplicate: the same content appears earlier in this run. */
  reason: "already_processed" | "duplicate";
  status: LedgerEntry["status"] | null;
  transaction_id: string | null;
  results_file: string | null;
  /** Why the content failed, when the ledger has it as failed. */
  error: string | null;
}

/** Runs one file as transaction `transactionId`, with extra metadata for its results file. */
export type RunFileFn = (
  transactionId: string,
  file: string,
  extraMetadata: Record<string, unknown>,
  onProgress?: ProgressFn,
) => Promise<FileRun>;

export class LedgerBatch {
  private readonly shaOf = new Map<string, string>();
  readonly skipped: SkippedFile[] = [];

  private constructor(
    readonly dataDir: string,
    private readonly ledger: Ledger,
    private readonly lock: DataDirLock,
    private readonly outDir: string,
    private readonly force: boolean,
  ) {}

  static open(opts: { dataDir: string; outDir: string; force?: boolean; command?: string }): LedgerBatch {
    const lock = acquireDataDirLock(opts.dataDir, opts.command ?? "process");
    try {
      return new LedgerBatch(
        path.resolve(opts.dataDir),
        Ledger.open(opts.dataDir),
        lock,
        opts.outDir,
        opts.force ?? false,
      );
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** The files this run processes, in order; the others are recorded in `skipped`. */
  async plan(files: string[]): Promise<string[]> {
    const seen = new Set<string>();
    const todo: string[] = [];
    for (const file of files) {
      const sha = await this.ledger.hashOf(file);
      if (sha === null) {
        todo.push(file); // unreadable: let the batch report the reason as a failed file
        continue;
      }
      const entry = this.ledger.lookup(sha);
      if (entry && entry.status !== "processing" && !this.force) {
        this.skipped.push({
          file,
          reason: "already_processed",
          status: entry.status,
          transaction_id: entry.transaction_id,
          results_file: entry.results_path,
          error: entry.error,
        });
      } else if (seen.has(sha)) {
        this.skipped.push({
          file,
          reason: "duplicate",
          status: null,
          transaction_id: null,
          results_file: null,
          error: null,
        });
      } else {
        todo.push(file);
        this.shaOf.set(path.resolve(file), sha);
      }
      seen.add(sha);
    }
    return todo;
  }

  /**
   * Wraps a file run: claims the content, runs it under the ledger's transaction id (so a re-taken file keeps its
   * id) with `content_sha256` in its metadata, and records done/failed once the outputs are written.
   */
  wrap(
    run: RunFileFn,
  ): (transactionId: string, file: string, onProgress?: ProgressFn) => Promise<FileRun & { transaction_id: string }> {
    return async (transactionId, file, onProgress) => {
      const sha = this.shaOf.get(path.resolve(file));
      if (!sha) return { ...(await run(transactionId, file, {}, onProgress)), transaction_id: transactionId };
      const claim = this.ledger.claim(sha, path.resolve(file), { force: this.force });
      if (claim.kind !== "claimed") {
        throw new DocprocError(
          "conflict",
          `${file}: content already ${claim.entry.status} (transaction ${claim.entry.transaction_id})`,
        );
      }
      const id = claim.entry.transaction_id;
      let out: FileRun;
      try {
        out = await run(id, file, { content_sha256: sha }, onProgress);
      } catch (err) {
        this.ledger.finish(sha, { status: "failed", error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      this.ledger.finish(sha, {
        status: out.failed ? "failed" : "done",
        results_path: out.results_path,
        error: out.error,
      });
      return { ...out, transaction_id: id };
    };
  }

  /** The `--json` summary plus what the ledger skipped (additive keys: scripts reading the base shape still work). */
  extendSummary<T extends object>(summary: T): T & { data_dir: string; already_processed: SkippedFile[] } {
    return { ...summary, data_dir: this.dataDir, already_processed: this.skipped };
  }

  /** One line for people about what was skipped, or "". */
  describeSkipped(): string {
    if (this.skipped.length === 0) return "";
    const dup = this.skipped.filter((s) => s.reason === "duplicate").length;
    const done = this.skipped.length - dup;
    const parts = [
      done > 0 ? `${done} already processed (ledger in ${this.dataDir}; --force redoes them)` : "",
      dup > 0 ? `${dup} duplicate content` : "",
    ];
    return `Skipped: ${parts.filter(Boolean).join(", ")}\n`;
  }

  close(): void {
    try {
      this.ledger.close();
    } finally {
      this.lock.release();
    }
  }
}
