/**
 * When a worker's extraction loops (convert/pdf.ts) may ask for their next page: together, in bursts.
 *
 * Why: when the thread taking the pages is slower than pdf.js (reading ahead classifies and extracts every page), the
 * worker answers what it was asked and sleeps, and a loop asking for one more page wakes it again for ~2 ms of
 * work. Waking a sleeping thread is what a request costs the asking thread: measured inside `postMessage` with
 * /proc/thread-self/schedstat, 500 real invoice pages, loaded 2-core VM: 0.22 ms of CPU a request (median), 0.26-0.31
 * CPU-s a run, a sixth of the main thread; a worker that is running takes a request for ~1 µs. So a loop that has its
 * page waits here until `burst` loops wait (one wake serves them all) or until no other loop has a request out (the
 * thread would otherwise wait for pdf.js with nothing to do). When pdf.js is the slower side, the loops still waiting
 * for their pages keep it busy meanwhile. Only where and when pages are read depends on it, never what is read.
 */
export class RequestGate {
  private out = 0;
  private waiters: Array<() => void> = [];

  /** `loops` share one worker; `burst` (≤ loops) of them ask together. */
  constructor(private readonly burst: number) {}

  /** Whether a loop may ask now, without waiting. */
  get open(): boolean {
    return this.out === 0 || this.waiters.length + 1 >= this.burst;
  }

  /** Waits until the loop may ask (at once when `open`). */
  turn(): Promise<void> {
    if (this.open) {
      this.release();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A loop's request went out. */
  asked(): void {
    this.out++;
  }

  /** A loop has its page (or its request failed), or stops: waiting loops go when no other request is out. */
  answered(): void {
    this.out--;
    if (this.out === 0) this.release();
  }

  /** A loop is done for good: it no longer counts towards a burst, so the others must not wait for it. */
  left(): void {
    this.release();
  }

  private release(): void {
    const go = this.waiters;
    this.waiters = [];
    for (const resolve of go) resolve();
  }
}
