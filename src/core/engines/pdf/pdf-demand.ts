/**
 * Whether a long PDF's text extraction wants a second pdf.js worker: only when the thread that takes the pages waits
 * for pdf.js. A helper worker opens its own copy of the document and runs its own VM (its JIT compiles pdf.js again),
 * so on two cores it only pays when pdf.js is the slower side. When the converting thread has per-page work of its
 * own (reading ahead: classification, extraction; core/stages/convert/read-ahead.ts) that work is usually the
 * slower side:
 * in a warm server, 500 born-digital pages took 0.1-0.8 CPU-s more with the helper and no less wall time.
 *
 * The meter counts the time during which every extraction loop of the primary worker is waiting for its page (the
 * thread has nothing else to do for this file) over a window of pages; the decision is taken once, at its end.
 * Results never depend on it, only where the pages are extracted.
 */

/** Pages converted before the window opens (the first ones also wait for pdf.js to warm up). */
export const DEMAND_WARMUP_PAGES = 8;
/** Pages converted when the decision is taken. */
export const DEMAND_WINDOW_END = 32;
/**
 * Share of the window the thread spent waiting for pdf.js from which helpers start. Reading ahead in a warm server
 * (500 real invoice pages, two cores, other work around) the thread waited 15-35% of the time, and the helper then
 * cost more CPU than it saved wall time; a thread with nothing else to do waits nearly all the time.
 */
export const HELPER_IDLE_SHARE = 0.5;

/** True when the waiting share says pdf.js is what the pages wait for. */
export function helpersWanted(idleMs: number, elapsedMs: number): boolean {
  return elapsedMs > 0 && idleMs / elapsedMs >= HELPER_IDLE_SHARE;
}

export class WaitMeter {
  private waiting = 0;
  private idleSince: number | null = null;
  private idleMs = 0;
  private startedAt: number;

  /** `loops`: how many extraction loops share the primary worker (the thread idles when all of them wait). */
  constructor(
    private readonly loops: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** Awaits a page request, counting the time every loop spent waiting at once. */
  async wait<T>(request: Promise<T>): Promise<T> {
    if (++this.waiting === this.loops) this.idleSince = this.now();
    try {
      return await request;
    } finally {
      if (this.idleSince !== null) {
        this.idleMs += this.now() - this.idleSince;
        this.idleSince = null;
      }
      this.waiting--;
    }
  }

  /** Starts the window afresh (after the warm-up pages). */
  restart(): void {
    this.startedAt = this.now();
    this.idleMs = 0;
  }

  helpersWanted(): boolean {
    return helpersWanted(this.idleMs, this.now() - this.startedAt);
  }
}
