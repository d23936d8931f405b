/**
 * A one-line progress bar for batches, drawn on a TTY stream (stderr, so stdout stays clean for `--json`).
 *
 * MUST draw nothing when the stream is not a TTY (logs, pipes, CI); SHOULD redraw at most ~10 times a second.
 */
import { ellipsize } from "./table";

/** Rough share of a file's processing time per pipeline step, to turn step progress into one fraction. */
const STEP_SPAN: Record<string, [number, number]> = {
  convert: [0, 0.15],
  ocr: [0.15, 0.8],
  split: [0.8, 0.85],
  extract: [0.85, 0.95],
  export: [0.95, 1],
};

interface Active {
  label: string;
  step: string;
  done: number;
  total: number;
}

export interface BatchProgress {
  start(key: string, label: string): void;
  step(key: string, step: string, done: number, total: number): void;
  finish(key: string): void;
  stop(): void;
}

export const silentProgress: BatchProgress = { start() {}, step() {}, finish() {}, stop() {} };

/** `--verbose`: one line per step a file enters and one when it is done, for logs and terminals alike. */
export function stepLines(
  stream: { write(s: string): unknown },
  now: () => number = () => performance.now(),
): BatchProgress {
  const files = new Map<string, { label: string; step: string; since: number }>();
  const line = (label: string, text: string, since: number) =>
    stream.write(`${label}: ${text} (${((now() - since) / 1000).toFixed(1)} s)\n`);
  return {
    start: (key, label) => void files.set(key, { label, step: "", since: now() }),
    step(key, step) {
      const f = files.get(key);
      if (!f || f.step === step) return;
      f.step = step;
      line(f.label, step, f.since);
    },
    finish(key) {
      const f = files.get(key);
      if (f) line(f.label, "done", f.since);
      files.delete(key);
    },
    stop() {},
  };
}

export function createProgress(stream: NodeJS.WriteStream, totalFiles: number): BatchProgress {
  if (!stream.isTTY) return silentProgress;
  return new ProgressBar(stream, totalFiles);
}

class ProgressBar implements BatchProgress {
  private active = new Map<string, Active>();
  private finished = 0;
  private lastDraw = 0;
  private readonly started = Date.now();
  private timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number,
  ) {
    // Keeps the clock moving during a long OCR page; unref'd so it never holds the process open.
    this.timer = setInterval(() => this.draw(true), 1000);
    this.timer.unref?.();
  }

  start(key: string, label: string) {
    this.active.set(key, { label, step: "convert", done: 0, total: 1 });
    this.draw(true);
  }

  step(key: string, step: string, done: number, total: number) {
    const a = this.active.get(key);
    if (!a) return;
    Object.assign(a, { step, done, total });
    this.draw(false);
  }

  finish(key: string) {
    this.active.delete(key);
    this.finished++;
    this.draw(true);
  }

  stop() {
    clearInterval(this.timer);
    this.stream.write("\r\x1b[2K");
  }

  private fraction(): number {
    let sum = this.finished;
    for (const a of this.active.values()) {
      const [from, to] = STEP_SPAN[a.step] ?? [0, 1];
      sum += from + (to - from) * (a.total > 0 ? Math.min(1, a.done / a.total) : 0);
    }
    return this.total > 0 ? sum / this.total : 1;
  }

  private draw(force: boolean) {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const cols = this.stream.columns || 80; // 0 under some pseudo-terminals
    const width = 24;
    const filled = Math.round(this.fraction() * width);
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    const elapsed = Math.round((now - this.started) / 1000);
    const clock = `${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, "0")}`;
    const detail = [...this.active.values()].map((a) => `${a.label} ${a.step} ${a.done}/${a.total}`).join(" · ");
    const head = `${bar} ${this.finished}/${this.total} files ${clock}  `;
    const line = head + ellipsize(detail, Math.max(0, cols - [...head].length - 1));
    this.stream.write(`\r\x1b[2K${line}`);
  }
}
