/**
 * `docproc process --data DIR`: the CLI batch runner (src/cli/batch.ts) made cron-safe with the ledger and the lock.
 *
 * MUST take the data-directory lock before looking at any file (two overlapping cron runs: the second exits 3);
 * MUST skip content the ledger has finished (unless `force`), and content listed twice in one run after the first;
 * MUST claim each file just before it is processed (the batch calls `contextFor` right before `process`) and record
 * its outcome right after, so a run killed mid-batch leaves only the files in hand to be re-taken.
 */
import path from "node:path";
import type { FileOutcome } from "../cli/batch";
import { DocprocError } from "../core/errors";
import type { TransactionInput } from "../core/model";
import type { PipelineContext, PipelineResult } from "../core/pipeline";
import { Ledger, type LedgerEntry } from "./ledger";
import { acquireDataDirLock, type DataDirLock } from "./lock";

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

type ProcessFn = (input: TransactionInput, ctx: PipelineContext) => Promise<PipelineResult>;

export class LedgerBatch {
  private readonly shaOf = new Map<string, string>();
  /** runBatch's own transaction id → the ledger's, to report the id the outputs carry. */
  private readonly idMap = new Map<string, string>();
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
      return new LedgerBatch(path.resolve(opts.dataDir), Ledger.open(opts.dataDir), lock, opts.outDir, opts.force ?? false);
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
        this.skipped.push({ file, reason: "already_processed", status: entry.status, transaction_id: entry.transaction_id, results_file: entry.results_path, error: entry.error });
      } else if (seen.has(sha)) {
        this.skipped.push({ file, reason: "duplicate", status: null, transaction_id: null, results_file: null, error: null });
      } else {
        todo.push(file);
        this.shaOf.set(path.resolve(file), sha);
      }
      seen.add(sha);
    }
    return todo;
  }

  /** Wraps the batch's context builder: claims the file and gives the transaction the ledger's id. */
  contextFor(build: (transactionId: string, file: string) => PipelineContext): (transactionId: string, file: string) => PipelineContext {
    return (transactionId, file) => {
      const ctx = build(transactionId, file);
      const sha = this.shaOf.get(path.resolve(file));
      if (!sha) return ctx;
      const claim = this.ledger.claim(sha, path.resolve(file), { force: this.force });
      if (claim.kind !== "claimed") {
        throw new DocprocError("conflict", `${file}: content already ${claim.entry.status} (transaction ${claim.entry.transaction_id})`);
      }
      this.idMap.set(transactionId, claim.entry.transaction_id);
      return { ...ctx, meta: { ...ctx.meta, transaction_id: claim.entry.transaction_id, metadata: { ...ctx.meta.metadata, content_sha256: sha } } };
    };
  }

  /** Wraps the pipeline call: records done/failed in the ledger once the outputs are written. */
  process(inner: ProcessFn): ProcessFn {
    return async (input, ctx) => {
      const sha = ctx.meta.metadata.content_sha256 as string | undefined;
      if (!sha) return inner(input, ctx);
      let result: PipelineResult;
      try {
        result = await inner(input, ctx);
      } catch (err) {
        this.ledger.finish(sha, { status: "failed", error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      const failed = result.status === "failure";
      this.ledger.finish(sha, {
        status: failed ? "failed" : "done",
        results_path: resultsPathOf(result, this.outDir),
        error: failed ? result.errors.map((e) => e.message).join("; ") || "failed" : null,
      });
      return result;
    };
  }

  /** Outcomes carry the transaction id the outputs were written under. */
  fixOutcomes(outcomes: FileOutcome[]): FileOutcome[] {
    return outcomes.map((o) => ({ ...o, transaction_id: this.idMap.get(o.transaction_id) ?? o.transaction_id }));
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
    const parts = [done > 0 ? `${done} already processed (ledger in ${this.dataDir}; --force redoes them)` : "", dup > 0 ? `${dup} duplicate content` : ""];
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

export function resultsPathOf(result: PipelineResult, outDir: string): string | null {
  const name = `${result.results.transaction_id}_data.json`;
  for (const entry of Object.values(result.manifest.profiles)) {
    for (const f of entry.files) if (path.basename(f.filename) === name) return path.resolve(outDir, f.filename);
  }
  return null;
}
