/**
 * `docproc watch`: hot folders → transactions, exactly once per file content.
 *
 * Flow per file: watcher event or folder scan → stability wait (stability.ts) → read bytes, sha256 → ledger claim →
 * pipeline → ledger outcome → original moved to processed/ or failed/ (+ `<name>.error.txt`).
 * MUST record the outcome in the ledger BEFORE moving the original: a kill in between leaves a file whose content is
 * `done`, which the next start only moves (never processes again). A kill before the outcome leaves a `processing`
 * row that the next start re-takes under the same transaction id (storage/watch-ledger.ts).
 * MUST scan the folders at start (files already there) and again every `rescanMs` (a missed event is never lost);
 * MUST use polling when asked or when a folder is on a network filesystem, and fall back to polling when the
 * native watcher fails (inotify limits); on `stop()` MUST finish the files in hand, start no new one, and release
 * the lock.
 */
import { watch, type FSWatcher } from "chokidar";
import path from "node:path";
import { collectInputs, DOCUMENT_EXTENSIONS, whyNotADocumentOf as whyNotADocument } from "./inputs";
import type { ProjectSettings } from "../core/project";
import { createFileProcessor, type FileProcessor } from "./file-processor";
import { folderMetadata, relativeUnder } from "./folder-meta";
import { needsPolling } from "./fs-kind";
import { Ledger, hashBytes } from "../storage/watch-ledger";
import { acquireDataDirLock, type DataDirLock } from "../storage/data-dir-lock";
import { moveInto, writeErrorNote } from "./move";
import { StabilityTracker } from "./stability";

export interface WatchOptions {
  dirs: string[];
  outDir: string;
  dataDir: string;
  project: ProjectSettings;
  poll: boolean;
  stableMs: number;
  /** Default: `<watched dir>/processed` and `<watched dir>/failed`. */
  processedDir?: string;
  failedDir?: string;
  /** Leave originals where they are (the ledger alone prevents reprocessing). */
  keep: boolean;
  /** Content the ledger recorded as failed is processed again when it appears (after fixing the cause). */
  retryFailed?: boolean;
  concurrency: number;
  rescanMs?: number;
  /** Default: the project's `ocr.engine`, else auto. */
  ocrEngine?: "auto" | "wasm" | "native";
  /** Result names: by transaction id (default) or by source stem (`--name-by source`; src/batch/output-names.ts). */
  nameBy?: "transaction" | "source";
  /** The pipeline's progress for a file's transaction (step timings in the log: src/batch/watch-log.ts). */
  onProgress?: (transactionId: string, step: string, done: number, total: number) => void;
}

export type WatchEvent =
  | { event: "watching"; dirs: string[]; polling: boolean; reason: string }
  | { event: "taken"; file: string; transaction_id: string; retaken: boolean }
  | {
      event: "done" | "failed";
      file: string;
      transaction_id: string;
      results_file: string | null;
      documents: number;
      seconds: number;
      error: string | null;
      /** The error's stable code (docs/api.md), null when done. */
      error_code: string | null;
      warnings: string[];
      moved_to: string | null;
    }
  | {
      event: "skipped";
      file: string;
      reason: "already_processed" | "duplicate";
      status: string;
      transaction_id: string;
      moved_to: string | null;
    }
  /** A settled file that is no document (an .xml that is no UBL or CII e-invoice): left where it is. */
  | { event: "skipped"; file: string; reason: "not_a_document"; detail: string }
  | { event: "error"; file?: string; message: string }
  /** The file changed (or vanished) while it was processed: left in place, taken again once stable. */
  | { event: "changed"; file: string; transaction_id: string }
  | { event: "stopped" };

export interface WatchHandle {
  /** Resolves once the initial scan has been queued and the watcher is live. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

interface Root {
  dir: string;
  processed: string;
  failed: string;
}

export function startWatch(opts: WatchOptions, emit: (e: WatchEvent) => void): WatchHandle {
  const lock = acquireDataDirLock(opts.dataDir, "watch");
  let ledger: Ledger;
  try {
    ledger = Ledger.open(opts.dataDir);
  } catch (err) {
    lock.release();
    throw err;
  }
  const w = new HotFolder(
    opts,
    emit,
    lock,
    ledger,
    createFileProcessor({
      project: opts.project,
      outDir: opts.outDir,
      source: "watch",
      ocrEngine: opts.ocrEngine,
      nameBy: opts.nameBy,
    }),
  );
  return { ready: w.start(), stop: () => w.stop() };
}

class HotFolder {
  private readonly roots: Root[];
  private readonly tracker: StabilityTracker;
  private watcher: FSWatcher | null = null;
  private polling: boolean;
  private readonly queue: Array<{ file: string; root: Root }> = [];
  /** Files queued or being processed: watch events for them are ignored. */
  private readonly inHand = new Set<string>();
  /** With --keep: originals already settled, by "size:mtime", so rescans do not re-read them. */
  private readonly settled = new Map<string, string>();
  /** Duplicates that arrived while the same content was being processed, by sha256. */
  private readonly waiting = new Map<string, Array<{ file: string; root: Root }>>();
  private readonly parked = new Set<string>();
  private running = 0;
  private stopping = false;
  private idle: (() => void) | null = null;
  private rescanTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly opts: WatchOptions,
    private readonly emit: (e: WatchEvent) => void,
    private readonly lock: DataDirLock,
    private readonly ledger: Ledger,
    private readonly processor: FileProcessor,
  ) {
    this.roots = opts.dirs.map((d) => {
      const dir = path.resolve(d);
      return {
        dir,
        processed: path.resolve(opts.processedDir ?? path.join(dir, "processed")),
        failed: path.resolve(opts.failedDir ?? path.join(dir, "failed")),
      };
    });
    this.polling = opts.poll || this.roots.some((r) => needsPolling(r.dir));
    this.tracker = new StabilityTracker({ stableMs: opts.stableMs, onStable: (f) => this.enqueue(f) });
  }

  async start(): Promise<void> {
    const network = this.roots.filter((r) => needsPolling(r.dir)).map((r) => r.dir);
    const reason = this.opts.poll
      ? "--poll"
      : network.length > 0
        ? `network filesystem: ${network.join(", ")}`
        : "inotify";
    await this.startWatcher();
    this.emit({ event: "watching", dirs: this.roots.map((r) => r.dir), polling: this.polling, reason });
    await this.scan();
    this.rescanTimer = setInterval(
      () => void this.scan().catch((e) => this.emit({ event: "error", message: String(e?.message ?? e) })),
      this.opts.rescanMs ?? 60_000,
    );
  }

  private excluded(): string[] {
    return [
      ...this.roots.flatMap((r) => [r.processed, r.failed]),
      path.resolve(this.opts.outDir),
      path.resolve(this.opts.dataDir),
    ];
  }

  private async startWatcher(): Promise<void> {
    const excluded = this.excluded();
    const roots = new Set(this.roots.map((r) => r.dir));
    const interval = Math.max(50, Math.min(1000, Math.floor(this.opts.stableMs / 2)));
    const watcher = watch(
      this.roots.map((r) => r.dir),
      {
        ignoreInitial: true,
        usePolling: this.polling,
        interval,
        binaryInterval: interval,
        ignored: (p: string) =>
          !roots.has(p) &&
          (path.basename(p).startsWith(".") || excluded.some((x) => p === x || p.startsWith(x + path.sep))),
      },
    );
    const onFile = (p: string) => {
      // An .xml file is watched too: once it has settled, handle() reads whether it is an e-invoice.
      const ext = path.extname(p).toLowerCase();
      if (!this.stopping && !this.inHand.has(p) && (DOCUMENT_EXTENSIONS.has(ext) || ext === ".xml"))
        this.tracker.track(p);
    };
    watcher
      .on("add", onFile)
      .on("change", onFile)
      .on("unlink", (p) => this.tracker.untrack(p));
    watcher.on("error", (err) => void this.onWatcherError(err));
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    this.watcher = watcher;
  }

  /** inotify can fail (watch limit reached, unsupported filesystem): polling always works. */
  private async onWatcherError(err: unknown): Promise<void> {
    this.emit({
      event: "error",
      message: `watcher: ${(err as Error)?.message ?? err}${this.polling ? "" : "; switching to polling"}`,
    });
    if (this.polling || this.stopping) return;
    this.polling = true;
    await this.watcher?.close();
    await this.startWatcher();
    await this.scan();
  }

  /** Tracks every document file in the watched folders that is not settled or in hand. */
  private async scan(): Promise<void> {
    for (const root of this.roots) {
      const { files } = await collectInputs([root.dir], { exclude: this.excluded() });
      for (const file of files) {
        if (this.stopping || this.inHand.has(file)) continue;
        const key = this.settled.get(file);
        if (key !== undefined && key === (await statKey(file))) continue;
        if (this.opts.keep && (await this.keptAndFinished(file))) continue;
        this.tracker.track(file);
      }
    }
  }

  /** --keep: a file whose (cached) content hash the ledger has finished needs no reading, no event. */
  private async keptAndFinished(file: string): Promise<boolean> {
    const key = await statKey(file);
    const sha = await this.ledger.hashOf(file);
    const entry = sha ? this.ledger.lookup(sha) : null;
    if (!entry || entry.status === "processing" || (this.opts.retryFailed && entry.status === "failed")) return false;
    this.settled.set(file, key);
    return true;
  }

  private enqueue(file: string): void {
    if (this.stopping || this.inHand.has(file) || this.parked.has(file)) return;
    const root = this.roots.find((r) => file.startsWith(r.dir + path.sep)) ?? this.roots[0]!;
    this.inHand.add(file);
    this.queue.push({ file, root });
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.running < this.opts.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void this.handle(job.file, job.root).finally(() => {
        this.running--;
        this.inHand.delete(job.file);
        if (this.running === 0 && this.idle) this.idle();
        this.pump();
      });
    }
  }

  private async handle(file: string, root: Root): Promise<void> {
    let sha: string | null = null;
    try {
      const before = await statKey(file);
      const bytes = await Bun.file(file)
        .bytes()
        .catch(() => null);
      if (!bytes) return; // gone meanwhile
      const notDocument = whyNotADocument(file, bytes);
      if (notDocument !== null) {
        this.emit({ event: "skipped", file, reason: "not_a_document", detail: notDocument });
        return;
      }
      sha = hashBytes(bytes);
      const claim = this.ledger.claim(sha, file, { retryFailed: this.opts.retryFailed });
      if (claim.kind === "in_progress") {
        this.waiting.set(sha, [...(this.waiting.get(sha) ?? []), { file, root }]);
        this.parked.add(file);
        return;
      }
      if (claim.kind === "finished") {
        if (await this.changedSince(file, before)) return this.waitAgain(file, claim.entry.transaction_id);
        const moved = await this.settle(file, root, claim.entry.status === "done", claim.entry.error);
        this.emit({
          event: "skipped",
          file,
          reason: "already_processed",
          status: claim.entry.status,
          transaction_id: claim.entry.transaction_id,
          moved_to: moved,
        });
        return;
      }
      const txid = claim.entry.transaction_id;
      this.emit({ event: "taken", file, transaction_id: txid, retaken: claim.retaken });
      const meta = { ...folderMetadata(root.dir, file), content_sha256: sha, original_filename: path.basename(file) };
      const onProgress = this.opts.onProgress;
      const run = await this.processor.run({
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
      this.ledger.finish(sha, outcome);
      const changed = await this.changedSince(file, before);
      const moved = changed ? null : await this.settle(file, root, outcome.status === "done", outcome.error);
      const documents = run.outcome.results.documents.length;
      const error_code = run.failed ? (run.outcome.error?.code ?? run.outcome.errors[0]?.code ?? "internal") : null;
      this.emit({
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
      for (const dup of this.waiting.get(sha) ?? []) {
        this.parked.delete(dup.file);
        const dupMoved = await this.settle(dup.file, dup.root, outcome.status === "done", outcome.error);
        this.emit({
          event: "skipped",
          file: dup.file,
          reason: "duplicate",
          status: outcome.status,
          transaction_id: txid,
          moved_to: dupMoved,
        });
      }
      this.waiting.delete(sha);
    } catch (err) {
      // Unexpected (disk full, permissions): the file stays where it is and the next scan or start retries it.
      this.emit({ event: "error", file, message: (err as Error)?.message ?? String(err) });
      // Duplicates waiting on this content are released too; the next scan picks them up again.
      for (const dup of (sha && this.waiting.get(sha)) || []) this.parked.delete(dup.file);
      if (sha) this.waiting.delete(sha);
    }
  }

  /**
   * A writer that paused longer than the stable time may have resumed: the content processed is recorded, but the
   * file is left in place and waited on again, so its new content becomes a transaction of its own.
   */
  private async changedSince(file: string, before: string): Promise<boolean> {
    return (await statKey(file)) !== before;
  }

  private waitAgain(file: string, transactionId: string): void {
    this.tracker.track(file);
    this.emit({ event: "changed", file, transaction_id: transactionId });
  }

  /** Moves the original to processed/ or failed/ (or remembers it with --keep); returns where it went. */
  private async settle(file: string, root: Root, ok: boolean, error: string | null): Promise<string | null> {
    if (this.opts.keep) {
      this.settled.set(file, await statKey(file));
      return null;
    }
    const moved = await moveInto(file, ok ? root.processed : root.failed, relativeUnder(root.dir, file));
    if (!ok) await writeErrorNote(moved, error ?? "processing failed");
    return moved;
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    this.tracker.stop();
    await this.watcher?.close();
    if (this.running > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    try {
      await this.processor.close();
      this.ledger.close();
    } finally {
      this.lock.release();
      this.emit({ event: "stopped" });
    }
  }
}

async function statKey(file: string): Promise<string> {
  const info = await Bun.file(file)
    .stat()
    .catch(() => null);
  return info ? `${info.size}:${info.mtimeMs}` : "";
}
