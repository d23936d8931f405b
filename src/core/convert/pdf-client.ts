/**
 * Main-thread side of the pdf.js host worker: one client per open PDF, every request bounded in time.
 *
 * Why a Worker and not Promise.race + doc.destroy(): pdf.js under Bun runs its parser on the calling thread, and a
 * hostile file can keep that thread busy synchronously; a race never gets to run its timer callback then, and
 * destroy() is only a message the busy parser never reads. Worker.terminate() stops the thread whatever it does.
 * A timed-out request terminates the worker; the next request starts a fresh one and re-opens the document
 * (at most MAX_RESTARTS times, so a file that hangs everywhere fails with `timeout` instead of looping).
 */
import { DocprocError } from "../errors.ts";
import type { OpenResult, PdfRequest, PdfResponse, WorkerFailure } from "./pdf-protocol.ts";

const MAX_RESTARTS = 3;
const IDLE_POOL_SIZE = 2;
/** A worker that served this many requests for one document collects its garbage when the document closes. */
const COLLECT_AFTER_REQUESTS = 100;
const workerUrl = new URL("./pdf-worker.ts", import.meta.url).href;
/** Worker options; the name is the thread's name in /proc (top -H, CPU per thread in the benchmarks). */
const WORKER_OPTIONS = { type: "module", name: "docproc-pdfjs" } as WorkerOptions;

// Healthy workers whose document was closed; starting a worker costs ~0.1-0.3 s, so small files reuse them.
const idleWorkers: Worker[] = [];
// Workers started by prewarmPdfWorkers that have not answered yet, with what settles their prewarm.
const warmingWorkers = new Map<Worker, () => void>();

/** Bun's Worker can be unref'd (the DOM typings in scope do not know it). */
function setRef(worker: Worker, ref: boolean): void {
  const w = worker as unknown as { ref(): void; unref(): void };
  if (ref) w.ref();
  else w.unref();
}

/**
 * An idle worker, else one still warming up (its messages queue behind pdf.js loading, so a PDF that arrives
 * mid-prewarm waits for that worker instead of starting a second one), else a new one.
 */
function takeWorker(): Worker {
  const idle = idleWorkers.pop();
  if (idle) {
    setRef(idle, true);
    return idle;
  }
  for (const [warming, settle] of warmingWorkers) {
    warmingWorkers.delete(warming);
    warming.onmessage = null; // its answer to the prewarm ping (id 0) is ignored by the new owner
    warming.onerror = null;
    settle();
    return warming;
  }
  return new Worker(workerUrl, WORKER_OPTIONS);
}

/**
 * Starts up to `count` pdf.js workers ahead of time (each loads and compiles pdf.js, 0.1-0.5 s), so the first PDF
 * of a batch does not pay for it. Optional: a process that never calls it starts workers on demand. Settles when
 * the workers are ready or were handed to a PDF meanwhile.
 */
export async function prewarmPdfWorkers(count = 2): Promise<void> {
  const wanted = Math.max(0, Math.min(count, IDLE_POOL_SIZE) - idleWorkers.length - warmingWorkers.size);
  await Promise.all(
    Array.from({ length: wanted }, async () => {
      const worker = new Worker(workerUrl, WORKER_OPTIONS);
      const answered = new Promise<boolean>((resolve) => {
        warmingWorkers.set(worker, () => resolve(false));
        worker.onmessage = () => resolve(true);
        // A worker that cannot even load (e.g. a binary without its companion folder) must not be handed to a PDF:
        // its error event is gone by then, and the PDF would wait out the open timeout instead of failing at once.
        worker.onerror = () => {
          warmingWorkers.delete(worker);
          worker.terminate();
          resolve(false);
        };
      });
      worker.postMessage({ id: 0, op: "close" } satisfies PdfRequest);
      if (!(await answered)) return; // taken by a PDF while warming up, or failed
      warmingWorkers.delete(worker);
      worker.onmessage = null;
      worker.onerror = null;
      setRef(worker, false);
      idleWorkers.push(worker);
    }),
  );
}

/** Terminates the idle workers (a clean shutdown, or a test that needs an empty pool). Warming ones finish first. */
export function closeIdlePdfWorkers(): void {
  for (const worker of idleWorkers.splice(0)) worker.terminate();
}

/** Workers ready (idle) or warming up, which a PDF can take without paying for a cold start. */
export function spareWorkerCount(): number {
  return idleWorkers.length + warmingWorkers.size;
}

type RequestBody = PdfRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  timer: ReturnType<typeof setTimeout>;
}

export class PdfWorkerClient {
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private restarts = 0;
  private closed = false;
  /** suspend() let the document go; the next request opens it again (not counted as a restart). */
  private suspended = false;
  /** Requests sent since the document was opened in the current worker. */
  private served = 0;
  /** A suspend() under way: requests wait for it, then open the document again. */
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    private readonly data: Uint8Array,
    private readonly password: string | undefined,
    private readonly openTimeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  private readonly onAbort = () => this.kill(abortError(this.signal!));

  /** Settles when the current worker has the document open; requests wait for it so their timers start later. */
  private opening: Promise<unknown> = Promise.resolve();

  /** Opens the document (in a fresh or reused worker). Throws DocprocError for unreadable files. */
  open(): Promise<OpenResult> {
    if (this.signal?.aborted) return Promise.reject(abortError(this.signal));
    this.worker = takeWorker();
    this.served = 0;
    this.worker.onmessage = (event: MessageEvent<PdfResponse>) => this.settle(event.data);
    this.worker.onerror = (event: ErrorEvent) => this.kill(new DocprocError("internal", `pdf worker failed: ${event.message}`));
    // A copy: the worker's document may outlive a request, and the original stays here for restarts.
    const opened = this.send({ op: "open", data: this.data.slice(), password: this.password }, this.openTimeoutMs) as Promise<OpenResult>;
    this.opening = opened;
    return opened;
  }

  /** Sends a request, restarting the worker first when an earlier request killed it. */
  async request<T>(body: RequestBody, timeoutMs: number, label: string): Promise<T> {
    if (this.closed) throw new DocprocError("internal", `${label}: the PDF was already closed`);
    // After an abort nothing restarts pdf.js: later renders (OCR, exports) fail at once instead of re-opening it.
    if (this.signal?.aborted) throw abortError(this.signal);
    await this.releasing;
    if (this.closed) throw new DocprocError("internal", `${label}: the PDF was already closed`);
    if (!this.worker && this.suspended) {
      this.suspended = false;
      this.open().catch(() => undefined);
    } else if (!this.worker) {
      if (this.restarts >= MAX_RESTARTS) {
        throw new DocprocError("timeout", `${label}: pdf.js timed out ${MAX_RESTARTS} times on this file`, { details: { exhausted: true } });
      }
      this.restarts++;
      this.open().catch(() => undefined); // awaited through `opening` below, by every concurrent caller alike
    }
    await this.opening;
    return (await this.send(body, timeoutMs, label)) as T;
  }

  private send(body: RequestBody, timeoutMs: number, label = "opening the PDF"): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new DocprocError("internal", "pdf worker is not running"));
    const id = this.nextId++;
    this.served++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
        const err = new DocprocError("timeout", `${label}: no answer from pdf.js within ${limit}`, { retryable: true });
        this.kill(err, id);
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...body } as PdfRequest);
    });
  }

  private settle(response: PdfResponse): void {
    const entry = this.pending.get(response.id);
    if (!entry) return;
    this.pending.delete(response.id);
    clearTimeout(entry.timer);
    if (response.ok) entry.resolve(response.result);
    else entry.reject(failureToError(response.error));
  }

  /**
   * Terminates the worker and fails everything in flight with `err`; when one request (`culprit`) timed out, the
   * others queued behind it fail as interrupted instead, so their callers can simply ask again.
   */
  private kill(err: DocprocError, culprit?: number): void {
    this.worker?.terminate();
    this.worker = null;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(culprit === undefined || id === culprit ? err : interruptedError());
    }
    this.pending.clear();
  }

  /** Closes the document; a healthy worker goes back to the idle pool. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    if (!this.worker) return this.kill(new DocprocError("internal", "the PDF was closed"));
    await this.release();
  }

  /**
   * Lets the document go while the file stays usable: the worker returns to the pool, and the next request opens
   * the document again (in whichever worker is free). The runner calls it once the text layers are read, so a
   * long file's pdf.js state (fonts, pages, ~150 MB for 2,000 pages) is not kept for renders that may never come.
   * A no-op while requests are in flight.
   */
  async suspend(): Promise<void> {
    if (this.closed || !this.worker || this.pending.size > 0) return;
    this.suspended = true;
    this.releasing = this.release();
    await this.releasing;
  }

  private async release(): Promise<void> {
    const worker = this.worker!;
    try {
      await this.send({ op: "close", collect: this.served >= COLLECT_AFTER_REQUESTS }, 5_000, "closing the PDF");
    } catch {
      return; // kill() already terminated it
    }
    this.worker = null;
    worker.onmessage = null;
    worker.onerror = null;
    if (idleWorkers.length < IDLE_POOL_SIZE) {
      setRef(worker, false); // an idle worker must not keep the process alive
      idleWorkers.push(worker);
    } else worker.terminate();
  }
}

function interruptedError(): DocprocError {
  return new DocprocError("internal", "interrupted: pdf.js was restarted after another request timed out", { retryable: true, details: { interrupted: true } });
}

/** True for a request that failed only because another one made the worker restart. */
export function isInterrupted(err: unknown): boolean {
  return err instanceof DocprocError && err.details?.interrupted === true;
}

/** True when the client gave up on the file (restarts exhausted) or the caller aborted. */
export function isFatal(err: unknown, signal?: AbortSignal): boolean {
  return err instanceof DocprocError && err.code === "timeout" && (signal?.aborted === true || err.details?.exhausted === true);
}

function abortError(signal: AbortSignal): DocprocError {
  const reason = signal.reason;
  if (reason instanceof DocprocError) return reason;
  return new DocprocError("timeout", "conversion was aborted", { retryable: true, cause: reason });
}

/** pdf.js exception names → stable docproc codes. */
function failureToError(failure: WorkerFailure): DocprocError {
  if (failure.passwordCode === 1) {
    return new DocprocError("encrypted_file", "the PDF is password-protected: supply its password", { details: { reason: failure.message } });
  }
  if (failure.passwordCode === 2) {
    return new DocprocError("wrong_password", "the password given for this PDF is not correct");
  }
  if (failure.name === "InvalidPDFException") {
    return new DocprocError("corrupt_file", `not a readable PDF: ${failure.message}`);
  }
  return new DocprocError("corrupt_file", `the PDF could not be read: ${failure.message}`, { details: { pdfjs_error: failure.name } });
}
