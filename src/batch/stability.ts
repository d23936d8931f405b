/**
 * File-stability tracker for hot folders: a file is handed over only once its size and mtime have stayed the same
 * for `stableMs` (a scanner or an SMB copy still writing it keeps changing one of them).
 *
 * MUST NOT hand over a file before it has been unchanged for `stableMs`, measured from the LAST observed change;
 * MUST hand over each tracked file at most once per `track()` (watch events for a file in hand are ignored upstream);
 * MUST drop files that disappear; SHOULD keep waiting on empty files (a scanner may create the file before writing).
 * Polls with `stat` (every `pollMs`), so it works the same on inotify and polled watchers, and on network shares.
 */
import { stat } from "node:fs/promises";

interface Tracked {
  size: number;
  mtimeMs: number;
  /** When size/mtime were last seen to change (or tracking began). */
  since: number;
}

export interface StabilityOptions {
  stableMs: number;
  /** Default: a quarter of stableMs, between 20 and 500 ms. */
  pollMs?: number;
  onStable(file: string): void;
  now?: () => number;
}

export class StabilityTracker {
  private readonly files = new Map<string, Tracked>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling = false;
  private readonly now: () => number;
  private readonly pollMs: number;

  constructor(private readonly opts: StabilityOptions) {
    this.now = opts.now ?? (() => Date.now());
    this.pollMs = opts.pollMs ?? Math.max(20, Math.min(500, Math.floor(opts.stableMs / 4)));
  }

  /** Starts (or restarts) the wait for `file`: called on every add/change event. */
  track(file: string): void {
    const known = this.files.get(file);
    if (known) known.since = this.now();
    else this.files.set(file, { size: -1, mtimeMs: -1, since: this.now() });
    this.timer ??= setInterval(() => void this.poll(), this.pollMs);
  }

  untrack(file: string): void {
    this.files.delete(file);
  }

  get size(): number {
    return this.files.size;
  }

  /** One pass over the tracked files; exported for tests that drive time themselves. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [file, t] of [...this.files]) {
        const info = await stat(file).catch(() => null);
        if (!this.files.has(file)) continue;
        if (!info || !info.isFile()) {
          this.files.delete(file);
          continue;
        }
        const now = this.now();
        if (info.size !== t.size || info.mtimeMs !== t.mtimeMs) {
          Object.assign(t, { size: info.size, mtimeMs: info.mtimeMs, since: now });
        } else if (info.size > 0 && now - t.since >= this.opts.stableMs) {
          this.files.delete(file);
          this.opts.onStable(file);
        }
      }
    } finally {
      this.polling = false;
      if (this.files.size === 0) this.stop();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
