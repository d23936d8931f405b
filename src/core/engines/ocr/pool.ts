/**
 * A fixed-size pool of lazily created resources (tesseract.js workers, or plain slots for child processes).
 * - MUST create at most `size` resources, only when a caller is waiting and none is idle;
 * - a resource that failed is discarded (not reused) and a waiting caller gets a fresh one;
 * - after `close()`, every `acquire()` rejects and every created resource has been destroyed.
 */
export class LazyPool<T> {
  private readonly idle: T[] = [];
  private readonly live = new Set<T>();
  private creating = 0;
  private closed = false;
  private readonly waiters: Array<{ resolve: (t: T) => void; reject: (e: unknown) => void }> = [];

  constructor(
    private readonly size: number,
    private readonly create: () => Promise<T>,
    private readonly destroy: (t: T) => Promise<void>,
    private readonly closedError: () => Error,
  ) {}

  async acquire(): Promise<T> {
    if (this.closed) throw this.closedError();
    const ready = this.idle.pop();
    if (ready !== undefined) return ready;
    if (this.live.size + this.creating < this.size) return this.grow();
    return new Promise<T>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  release(t: T): void {
    if (this.closed) {
      this.live.delete(t);
      void this.destroy(t).catch(() => {});
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(t);
    else this.idle.push(t);
  }

  /**
   * Creates resources ahead of need, each prepared by `prepare` (a model loaded) and then idle (or handed to a caller
   * already waiting): enough for `wanted` more users besides those holding one, counting the idle ones, within the
   * pool's size. Resolves when they are ready; MUST NOT reject: a resource that fails to start or prepare is dropped,
   * and the next `acquire` tries again.
   */
  async prestart(prepare: (t: T) => Promise<void> = async () => {}, wanted = this.size): Promise<void> {
    if (this.closed) return;
    const missing = Math.min(this.size - this.live.size - this.creating, wanted - this.idle.length);
    await Promise.all(
      Array.from({ length: Math.max(0, missing) }, async () => {
        let t: T;
        try {
          t = await this.grow();
        } catch {
          return;
        }
        try {
          await prepare(t);
          this.release(t);
        } catch {
          this.discard(t);
        }
      }),
    );
  }

  /** Drops a broken resource; a waiting caller gets a new one instead. */
  discard(t: T): void {
    this.live.delete(t);
    void this.destroy(t).catch(() => {});
    this.wakeOne();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(this.closedError());
    const all = [...this.live];
    this.live.clear();
    this.idle.length = 0;
    await Promise.all(all.map((t) => this.destroy(t).catch(() => {})));
  }

  private async grow(): Promise<T> {
    this.creating++;
    try {
      const t = await this.create();
      if (this.closed) {
        await this.destroy(t).catch(() => {});
        throw this.closedError();
      }
      this.live.add(t);
      return t;
    } catch (err) {
      // A creation failure must not strand callers queued behind it.
      queueMicrotask(() => this.wakeOne());
      throw err;
    } finally {
      this.creating--;
    }
  }

  private wakeOne(): void {
    const waiter = this.waiters.shift();
    if (waiter) this.acquire().then(waiter.resolve, waiter.reject);
  }
}
