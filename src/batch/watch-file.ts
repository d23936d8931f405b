/**
 * One settled file of a watched folder (watcher.ts): read, claimed in the ledger by content, run through the
 * pipeline, its outcome recorded, then the original moved (or, with --keep, remembered). The ordering rules are in
 * watcher.ts's header.
 */
import path from "node:path";
import type { Ledger } from "../storage/watch/watch-ledger";
import { readSourceFile, contentSha256 } from "../core/engines/pdf/pdf-bytes";
import type { FileProcessor } from "./file-processor";
import { folderMetadata, relativeUnder } from "./folder-meta";
import { statKey } from "./fs-watch";
import { whyNotADocumentOf as whyNotADocument } from "./inputs";
import { moveInto, writeErrorNote } from "./move";
import type { StabilityTracker } from "./stability";
import type { Root, WatchEvent, WatchOptions } from "./watch-types";
import { headBytes, type SourceData } from "../core/source-data";

/** What the file handler shares with its hot folder. */
export interface WatchShared {
  opts: WatchOptions;
  emit: (e: WatchEvent) => void;
  ledger: Ledger;
  processor: FileProcessor;
  tracker: StabilityTracker;
  /** With --keep: originals already settled, by "size:mtime", so rescans do not re-read them. */
  settled: Map<string, string>;
  /** Duplicates that arrived while the same content was being processed, by sha256. */
  waiting: Map<string, Array<{ file: string; root: Root }>>;
  parked: Set<string>;
}

export class WatchedFile {
  constructor(private readonly s: WatchShared) {}

  async handle(file: string, root: Root): Promise<void> {
    let sha: string | null = null;
    try {
      const before = await statKey(file);
      // A large PDF is left in its file, not read (its pdf.js workers read the file): pdf-bytes.ts.
      const bytes = await readSourceFile(file).catch(() => null);
      if (!bytes) return; // gone meanwhile
      const notDocument = whyNotADocument(file, headBytes(bytes));
      if (notDocument !== null) {
        this.s.emit({ event: "skipped", file, reason: "not_a_document", detail: notDocument });
        return;
      }
      sha = contentSha256(bytes);
      const claim = this.s.ledger.claim(sha, file, { retryFailed: this.s.opts.retryFailed });
      if (claim.kind === "in_progress") {
        this.s.waiting.set(sha, [...(this.s.waiting.get(sha) ?? []), { file, root }]);
        this.s.parked.add(file);
        return;
      }
      if (claim.kind === "finished") {
        if (await this.changedSince(file, before)) return this.waitAgain(file, claim.entry.transaction_id);
        const moved = await this.settle(file, root, claim.entry.status === "done", claim.entry.error);
        this.s.emit({
          event: "skipped",
          file,
          reason: "already_processed",
          status: claim.entry.status,
          transaction_id: claim.entry.transaction_id,
          moved_to: moved,
        });
        return;
      }
      await this.process(file, root, bytes, sha, before, claim);
    } catch (err) {
      // Unexpected (disk full, permissions): the file stays where it is and the next scan or start retries it.
      this.s.emit({ event: "error", file, message: (err as Error)?.message ?? String(err) });
      // Duplicates waiting on this content are released too; the next scan picks them up again.
      for (const dup of (sha && this.s.waiting.get(sha)) || []) this.s.parked.delete(dup.file);
      if (sha) this.s.waiting.delete(sha);
    }
  }

  /** A claimed file through the pipeline; its outcome in the ledger, then the original moved. */
  private async process(
    file: string,
    root: Root,
    bytes: SourceData,
    sha: string,
    before: string,
    claim: { entry: { transaction_id: string }; retaken: boolean },
  ): Promise<void> {
    const txid = claim.entry.transaction_id;
    this.s.emit({ event: "taken", file, transaction_id: txid, retaken: claim.retaken });
    const meta = { ...folderMetadata(root.dir, file), content_sha256: sha, original_filename: path.basename(file) };
    const onProgress = this.s.opts.onProgress;
    const run = await this.s.processor.run({
      file,
      bytes,
      transactionId: txid,
      metadata: meta,
      ...(onProgress ? { onProgress: (step, done, total) => onProgress(txid, step, done, total) } : {}),
    });
    const outcome = {
      status: run.failed ? ("failed" as const) : ("done" as const),
      results_path: run.results_path,
      error: run.error,
    };
    this.s.ledger.finish(sha, outcome);
    const changed = await this.changedSince(file, before);
    const moved = changed ? null : await this.settle(file, root, outcome.status === "done", outcome.error);
    const documents = run.outcome.results.documents.length;
    const error_code = run.failed ? (run.outcome.error?.code ?? run.outcome.errors[0]?.code ?? "internal") : null;
    this.s.emit({
      event: outcome.status,
      file,
      transaction_id: txid,
      results_file: run.results_path,
      documents,
      seconds: run.seconds,
      error: run.error,
      error_code,
      warnings: run.outcome.warnings,
      moved_to: moved,
    });
    if (changed) this.waitAgain(file, txid);
    await this.releaseDuplicates(sha, txid, outcome);
  }

  /** Files of the same content that arrived while it was processed: settled like it, reported as duplicates. */
  private async releaseDuplicates(
    sha: string,
    txid: string,
    outcome: { status: "done" | "failed"; error: string | null },
  ): Promise<void> {
    for (const dup of this.s.waiting.get(sha) ?? []) {
      this.s.parked.delete(dup.file);
      const dupMoved = await this.settle(dup.file, dup.root, outcome.status === "done", outcome.error);
      this.s.emit({
        event: "skipped",
        file: dup.file,
        reason: "duplicate",
        status: outcome.status,
        transaction_id: txid,
        moved_to: dupMoved,
      });
    }
    this.s.waiting.delete(sha);
  }

  /**
   * A writer that paused longer than the stable time may have resumed: the content processed is recorded, but the
   * file is left in place and waited on again, so its new content becomes a transaction of its own.
   */
  private async changedSince(file: string, before: string): Promise<boolean> {
    return (await statKey(file)) !== before;
  }

  private waitAgain(file: string, transactionId: string): void {
    this.s.tracker.track(file);
    this.s.emit({ event: "changed", file, transaction_id: transactionId });
  }

  /** Moves the original to processed/ or failed/ (or remembers it with --keep); returns where it went. */
  private async settle(file: string, root: Root, ok: boolean, error: string | null): Promise<string | null> {
    if (this.s.opts.keep) {
      this.s.settled.set(file, await statKey(file));
      return null;
    }
    const moved = await moveInto(file, ok ? root.processed : root.failed, relativeUnder(root.dir, file));
    if (!ok) await writeErrorNote(moved, error ?? "processing failed");
    return moved;
  }
}
