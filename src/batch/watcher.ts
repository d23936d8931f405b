/**
 * `docproc watch`: hot folders → transactions, exactly once per file content.
 *
 * Flow per file: watcher event or folder scan → stability wait (stability.ts) → read bytes, sha256 → ledger claim →
 * pipeline → ledger outcome → original moved to processed/ or failed/ (+ `<name>.error.txt`).
 * MUST record the outcome in the ledger BEFORE moving the original: a kill in between leaves a file whose content is
 * `done`, which the next start only moves (never processes again). A kill before the outcome leaves a `processing`
 * row that the next start re-takes under the same transaction id (storage/watch/watch-ledger.ts).
 * MUST scan the folders at start (files already there) and again every `rescanMs` (a missed event is never lost);
 * MUST use polling when asked or when a folder is on a network filesystem, and fall back to polling when the
 * native watcher fails (inotify limits); on `stop()` MUST finish the files in hand, start no new one, and release
 * the lock.
 */
import type { FSWatcher } from "chokidar";
import path from "node:path";
import { collectInputs, DOCUMENT_EXTENSIONS } from "./inputs";
import { createFileProcessor, type FileProcessor } from "./file-processor";
import { needsPolling } from "./fs-kind";
import { openWatcher, statKey } from "./fs-watch";
import { Ledger } from "../storage/watch/watch-ledger";
import { acquireDataDirLock, type DataDirLock } from "../storage/watch/data-dir-lock";
import { StabilityTracker } from "./stability";
import { WatchedFile } from "./watch-file";
import type { Root, WatchEvent, WatchHandle, WatchOptions } from "./watch-types";

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
  private readonly files: WatchedFile;
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
    this.files = new WatchedFile({
      opts,
      emit,
      ledger,
      processor,
      tracker: this.tracker,
      settled: this.settled,
      waiting: this.waiting,
      parked: this.parked,
    });
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
    this.watcher = await openWatcher({
      dirs: this.roots.map((r) => r.dir),
      excluded: this.excluded(),
      polling: this.polling,
      stableMs: this.opts.stableMs,
      // An .xml file is watched too: once it has settled, handle() reads whether it is an e-invoice.
      onFile: (p) => {
        const ext = path.extname(p).toLowerCase();
        if (!this.stopping && !this.inHand.has(p) && (DOCUMENT_EXTENSIONS.has(ext) || ext === ".xml"))
          this.tracker.track(p);
      },
      onGone: (p) => this.tracker.untrack(p),
      onError: (err) => void this.onWatcherError(err),
    });
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
      void this.files.handle(job.file, job.root).finally(() => {
        this.running--;
        this.inHand.delete(job.file);
        if (this.running === 0 && this.idle) this.idle();
        this.pump();
      });
    }
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
