/**
 * pdf.js host workers and the documents open in them (the documents' side is pdf-client.ts).
 *
 * Why several documents per worker: each worker is its own VM that loads pdf.js and compiles it again (0.4-0.6 s of
 * CPU), while a one-page file needs only ~10 ms of pdf.js. A batch of small files on two cores, one worker per lane,
 * paid for two cold VMs and two JIT warm-ups; its small files now share one worker (per two cores), and a long
 * file, a helper (pdf.ts) or a file that once made pdf.js time out keeps a worker to itself.
 *
 * Isolation stays what it was with one document per worker: the worker answers requests one after another in the
 * order sent, so only the request at the head of the queue is timed (the others wait for it, whoever sent them).
 * When it times out, the worker is terminated: that request fails with `timeout`, every other one (its document's
 * and the other documents') fails as interrupted (isInterrupted) and is asked again in a fresh worker, and only the
 * timed-out document counts a restart.
 */
import { cpuCount } from "../../cores";
import { DocprocError } from "../../errors.ts";
import type { PageParams, PdfRequest, PdfRequestBody, PdfResponse } from "./pdf-protocol.ts";
import { closeLeftFds, newFdTable } from "./pdf-worker-fds.ts";
import { failureToError, interruptedError } from "./pdf-errors.ts";

const IDLE_POOL_SIZE = 2;
/** Documents one worker serves at most at a time. */
const MAX_TENANTS = 4;
/** A document with more pages than this keeps its worker to itself (it can keep a worker busy on its own). */
export const SHARE_MAX_PAGES = 8;
/** Workers that small documents share: one per two cores (pdf.js is half of a small file's CPU time). */
let sharedHostTarget = Math.max(1, Math.floor(cpuCount() / 2));

const workerUrl = new URL("./pdf-worker.ts", import.meta.url).href;
/** Worker options; the name is the thread's name in /proc (top -H, CPU per thread in the benchmarks). */
const WORKER_OPTIONS = { type: "module", name: "docproc-pdfjs" } as WorkerOptions;

/** A document as its host sees it (a PdfWorkerClient). */
export interface HostTenant {
  /**
   * False for a document that must have a worker to itself: a long one (more than SHARE_MAX_PAGES), a helper's
   * copy, a file that made pdf.js time out.
   */
  readonly shareable: boolean;
  /** The worker was terminated while this document was open in it; `blamed`: because of this document. */
  hostLost(blamed: boolean): void;
}

interface Pending {
  tenant: HostTenant;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  timeoutMs: number;
  label: string;
  timer: ReturnType<typeof setTimeout> | null;
}

export class PdfHost {
  readonly tenants = new Set<HostTenant>();
  /** Requests in the order sent, which is the order the worker runs them in. */
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private dead = false;

  constructor(readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<PdfResponse>) => this.settle(event.data);
    worker.onerror = (event: ErrorEvent) =>
      this.kill(new DocprocError("internal", `pdf worker failed: ${event.message}`), this.head()?.[1].tenant);
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Whether a small document may join the ones open here. */
  joinable(): boolean {
    if (this.dead || this.tenants.size === 0 || this.tenants.size >= MAX_TENANTS) return false;
    for (const t of this.tenants) if (!t.shareable) return false;
    return true;
  }

  /** Whether `tenant` has requests in flight here. */
  busyWith(tenant: HostTenant): boolean {
    for (const entry of this.pending.values()) if (entry.tenant === tenant) return true;
    return false;
  }

  send(
    tenant: HostTenant,
    body: PdfRequestBody,
    timeoutMs: number,
    label: string,
    transfer: Transferable[] = [],
  ): Promise<unknown> {
    if (this.dead) return Promise.reject(new DocprocError("internal", "pdf worker is not running"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { tenant, resolve, reject, timeoutMs, label, timer: null });
      this.armHead();
      this.worker.postMessage({ id, ...body }, transfer);
    });
  }

  private head(): [number, Pending] | undefined {
    return this.pending.entries().next().value;
  }

  /** Starts the timer of the request the worker is running now (the head of the queue). */
  private armHead(): void {
    const head = this.head();
    if (!head || head[1].timer) return;
    const [id, entry] = head;
    entry.timer = setTimeout(() => {
      const limit = entry.timeoutMs >= 1000 ? `${Math.round(entry.timeoutMs / 1000)} s` : `${entry.timeoutMs} ms`;
      const err = new DocprocError("timeout", `${entry.label}: no answer from pdf.js within ${limit}`, {
        retryable: true,
      });
      this.kill(err, entry.tenant, id);
    }, entry.timeoutMs);
  }

  private settle(response: PdfResponse): void {
    const entry = this.pending.get(response.id);
    if (!entry) return; // e.g. the answer to a prewarm ping (id 0)
    this.pending.delete(response.id);
    if (entry.timer) clearTimeout(entry.timer);
    this.armHead();
    if (response.ok) entry.resolve(response.result);
    else entry.reject(failureToError(response.error));
  }

  /**
   * Terminates the worker. `err` goes to the culprit request (`culpritId`), or without one to every request of the
   * culprit document; all other requests fail as interrupted. The documents learn first (hostLost), so that a
   * caller asking again finds its document without a worker.
   */
  kill(err: DocprocError, culprit?: HostTenant, culpritId?: number): void {
    if (this.dead) return;
    this.dead = true;
    this.worker.terminate();
    live.delete(this);
    const idle = idleHosts.indexOf(this);
    if (idle >= 0) idleHosts.splice(idle, 1);
    const pending = [...this.pending];
    this.pending.clear();
    const tenants = [...this.tenants];
    this.tenants.clear();
    for (const tenant of tenants) tenant.hostLost(tenant === culprit);
    for (const [id, entry] of pending) {
      if (entry.timer) clearTimeout(entry.timer);
      const blamed = culpritId === undefined ? entry.tenant === culprit : id === culpritId;
      entry.reject(blamed ? err : interruptedError());
    }
  }

  attach(tenant: HostTenant): void {
    this.tenants.add(tenant);
  }

  /** The document was closed here; a worker left without documents goes back to the idle pool. */
  detach(tenant: HostTenant): void {
    if (!this.tenants.delete(tenant) || this.tenants.size > 0 || this.dead) return;
    live.delete(this);
    if (idleHosts.length < IDLE_POOL_SIZE) {
      setRef(this.worker, false); // an idle worker must not keep the process alive
      idleHosts.push(this);
    } else {
      this.dead = true;
      this.worker.terminate();
    }
  }
}

// Workers serving documents now; healthy workers whose documents were all closed (starting one costs ~0.1-0.3 s, so
// small files reuse them); workers started by prewarmPdfWorkers that have not answered yet, with what settles them.
const live = new Set<PdfHost>();
const idleHosts: PdfHost[] = [];
const warmingWorkers = new Map<Worker, () => void>();

/** Bun's Worker can be unref'd (the DOM typings in scope do not know it). */
function setRef(worker: Worker, ref: boolean): void {
  const w = worker as unknown as { ref(): void; unref(): void };
  if (ref) w.ref();
  else w.unref();
}

/**
 * The worker a document opens in: for a shareable one, a worker already serving small documents once there are
 * enough of those; else an idle worker, else one still warming up (its messages queue behind pdf.js loading, so a
 * PDF that arrives mid-prewarm waits for that worker instead of starting a second one), else a new one.
 */
export function takeHost(shareable: boolean): PdfHost {
  if (shareable) {
    let best: PdfHost | null = null;
    let joinable = 0;
    for (const host of live) {
      if (!host.joinable()) continue;
      joinable++;
      if (!best || host.tenants.size < best.tenants.size) best = host;
    }
    if (best && joinable >= sharedHostTarget) return best;
  }
  const host = idleHosts.pop() ?? new PdfHost(warmOrNewWorker());
  setRef(host.worker, true);
  live.add(host);
  return host;
}

function warmOrNewWorker(): Worker {
  for (const [warming, settle] of warmingWorkers) {
    warmingWorkers.delete(warming);
    warming.onmessage = null; // its answer to the prewarm ping (id 0) is ignored by the new owner
    warming.onerror = null;
    settle();
    return warming;
  }
  return spawnWorker();
}

/**
 * A new pdf.js worker, first told where to list the files it opens: once it has stopped (terminated on a timeout
 * mid-read, or retired), the host closes what it left open (pdf-worker-fds.ts).
 */
function spawnWorker(): Worker {
  const worker = new Worker(workerUrl, WORKER_OPTIONS);
  const table = newFdTable();
  worker.postMessage({ id: 0, doc: 0, op: "fds", table } satisfies PdfRequest);
  worker.addEventListener("close", () => closeLeftFds(table));
  return worker;
}

/** Sets how many workers small documents share (tests; default one per two cores). Returns the previous value. */
export function setSharedHostTarget(count: number): number {
  const previous = sharedHostTarget;
  sharedHostTarget = Math.max(1, count);
  return previous;
}

/** A file the first prewarmed worker opens and starts reading before it is asked to (pdf-head-start.ts). */
export interface HeadStart extends PageParams {
  data: Uint8Array;
  pages: number;
}

/**
 * Starts up to `count` pdf.js workers ahead of time (each loads and compiles pdf.js, 0.1-0.5 s), so the first PDF
 * of a batch does not pay for it. Optional: a process that never calls it starts workers on demand. Settles when
 * the workers are ready or were handed to a PDF meanwhile. With `head`, the first worker started here also opens
 * that file and reads its first pages while waiting (`head.data` is handed over); it settles once that stopped.
 */
export async function prewarmPdfWorkers(count = 2, head?: HeadStart): Promise<void> {
  const wanted = Math.max(0, Math.min(count, IDLE_POOL_SIZE) - idleHosts.length - warmingWorkers.size);
  await Promise.all(
    Array.from({ length: wanted }, async (_, i) => {
      const worker = spawnWorker();
      const heading = Boolean(head && i === 0);
      const answered = new Promise<boolean>((resolve) => {
        warmingWorkers.set(worker, () => resolve(false));
        // With a head start, the second answer (id 0 too) says it has stopped; the worker is ready from the first.
        let answers = 0;
        worker.onmessage = () => {
          if (++answers >= (heading ? 2 : 1)) resolve(true);
        };
        // A worker that cannot even load (e.g. a binary without its companion folder) must not be handed to a PDF:
        // its error event is gone by then, and the PDF would wait out the open timeout instead of failing at once.
        worker.onerror = () => {
          warmingWorkers.delete(worker);
          worker.terminate();
          resolve(false);
        };
      });
      worker.postMessage({ id: 0, doc: 0, op: "close" });
      if (heading) worker.postMessage({ id: 0, doc: 0, op: "head-start", ...head! }, [head!.data.buffer]);
      if (!(await answered)) return; // taken by a PDF while warming up, or failed
      warmingWorkers.delete(worker);
      setRef(worker, false);
      idleHosts.push(new PdfHost(worker));
    }),
  );
}

/** Terminates the idle workers (a clean shutdown, or a test that needs an empty pool). Warming ones finish first. */
export function closeIdlePdfWorkers(): void {
  for (const host of idleHosts.splice(0)) host.kill(new DocprocError("internal", "pdf.js workers were shut down"));
}

/** Workers ready (idle) or warming up, which a PDF can take without paying for a cold start. */
export function spareWorkerCount(): number {
  return idleHosts.length + warmingWorkers.size;
}
