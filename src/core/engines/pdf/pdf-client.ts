/**
 * Main-thread side of one open PDF: its document in a pdf.js host worker (pdf-host.ts), every request bounded in time.
 *
 * Why a Worker and not Promise.race + doc.destroy(): pdf.js under Bun runs its parser on the calling thread, and a
 * hostile file can keep that thread busy synchronously; a race never gets to run its timer callback then, and
 * destroy() is only a message the busy parser never reads. Worker.terminate() stops the thread whatever it does.
 * A timed-out request terminates the worker; the next request starts a fresh one and re-opens the document
 * (at most MAX_RESTARTS times, so a file that hangs everywhere fails with `timeout` instead of looping). Other
 * documents that shared the worker are re-opened too, without counting a restart: their requests fail as
 * interrupted, and their callers ask again.
 */
import { DocprocError } from "../../errors.ts";
import { SHARE_MAX_PAGES, takeHost, type HostTenant, type PdfHost } from "./pdf-host.ts";
import { interruptedError, isInterrupted } from "./pdf-errors.ts";
import type { OpenResult, PdfRequestBody } from "./pdf-protocol.ts";
import { isShared, SHARED_MIN_BYTES, sharedBytes, workerCopy } from "./pdf-bytes.ts";
import { isSourceFile, type SourceData } from "../../source-data.ts";

export { closeIdlePdfWorkers, prewarmPdfWorkers, spareWorkerCount } from "./pdf-host.ts";
export { isInterrupted } from "./pdf-errors.ts";

const MAX_RESTARTS = 3;
/** A worker that served this many requests for one document collects its garbage when the document closes. */
const COLLECT_AFTER_REQUESTS = 100;
/** Document ids, unique in the process (a worker may hold several documents). */
let nextDocId = 1;

type RequestBody = PdfRequestBody extends infer R ? (R extends { doc: number } ? Omit<R, "doc"> : never) : never;

export interface PdfClientOptions {
  /** False: the document never shares its worker with other documents (a helper reading a long file's copy). */
  share?: boolean;
}

export class PdfWorkerClient implements HostTenant {
  private host: PdfHost | null = null;
  private readonly docId = nextDocId++;
  private restarts = 0;
  private closed = false;
  /** suspend() let the document go, or another document's timeout took the worker: the next request opens it again
   *  (not counted as a restart). */
  private suspended = false;
  /** Requests sent since the document was opened in the current worker. */
  private served = 0;
  /** A suspend() under way: requests wait for it, then open the document again. */
  private releasing: Promise<void> = Promise.resolve();
  /** Settles when the current worker has the document open; requests wait for it so their timers start later. */
  private opening: Promise<unknown> = Promise.resolve();
  private mayShare: boolean;
  private pageCount: number | null = null;
  /**
   * Whether the document is (to be) opened with the fonts pdf.js renders with. Until the first render it is opened
   * for its text only, whose font translation skips rebuilding embedded fonts (TEXT_ONLY_FONTS,
   * pdfjs-font-patches.ts): the same text, a fifth less pdf.js CPU on small files.
   */
  private fullFonts = false;
  /** A shared copy of bytes the caller holds outside shared memory, kept while the document is open (bytes()). */
  private sharedCopy: Uint8Array | null = null;

  constructor(
    private readonly data: SourceData,
    private readonly password: string | undefined,
    private readonly openTimeoutMs: number,
    private readonly signal?: AbortSignal,
    opts: PdfClientOptions = {},
  ) {
    this.mayShare = opts.share ?? true;
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The document is open in a worker now (a request would not have to open it first). */
  get attached(): boolean {
    return this.host !== null && !this.closed;
  }

  get shareable(): boolean {
    return this.mayShare && (this.pageCount === null || this.pageCount <= SHARE_MAX_PAGES);
  }

  hostLost(blamed: boolean): void {
    this.host = null;
    // A file that made pdf.js time out gets a worker of its own from now on: it must not take others down again.
    if (blamed) this.mayShare = false;
    else if (!this.closed) this.suspended = true;
  }

  /**
   * After an abort nothing of this document may keep pdf.js busy: its worker is terminated (the other documents in
   * it are re-opened elsewhere), unless it only shares an idle moment of a worker with others, which just close it.
   */
  private readonly onAbort = () => {
    const host = this.host;
    if (!host) return;
    if (host.tenants.size <= 1 || host.busyWith(this)) host.kill(abortError(this.signal!), this);
    else void this.release(host);
  };

  /** Opens the document (in a shared, idle or new worker). Throws DocprocError for unreadable files. */
  async open(): Promise<OpenResult> {
    for (;;) {
      try {
        return await this.openOnce();
      } catch (err) {
        // Another document made the shared worker restart before this one was open: open it again.
        if (!isInterrupted(err) || this.closed || this.signal?.aborted) throw err;
      }
    }
  }

  private openOnce(): Promise<OpenResult> {
    if (this.signal?.aborted) return Promise.reject(abortError(this.signal));
    const host = takeHost(this.shareable);
    this.host = host;
    this.suspended = false;
    this.served = 0;
    host.attach(this);
    // Shared bytes are read by the worker where they are; others are copied and handed over (the worker's document
    // may outlive a request, and the original stays here for restarts).
    // A source left in its file is read by the worker from the file itself.
    const bytes = this.bytes();
    const file = isSourceFile(bytes) ? bytes.identity : undefined;
    const data = isSourceFile(bytes) ? new Uint8Array(0) : isShared(bytes) ? bytes : workerCopy(bytes);
    const opened = this.send(
      host,
      { op: "open", data, password: this.password, textOnly: !this.fullFonts, ...(file ? { file } : {}) },
      this.openTimeoutMs,
      "opening the PDF",
      isShared(data) ? [] : [data.buffer],
    ).then((result) => {
      this.pageCount = (result as OpenResult).numPages;
      return result as OpenResult;
    });
    this.opening = opened;
    return opened;
  }

  /**
   * The bytes this document's workers read (pdf-bytes.ts): the caller's own when they are in shared memory, small or
   * left in their file, else one shared copy while the document is open, which helpers reading the same file take too.
   */
  bytes(): SourceData {
    if (isSourceFile(this.data) || isShared(this.data) || this.data.byteLength < SHARED_MIN_BYTES) return this.data;
    this.sharedCopy ??= sharedBytes(this.data);
    return this.sharedCopy;
  }

  /** Sends a request, re-opening the document first when its worker is gone (suspended, or a request timed out). */
  async request<T>(body: RequestBody, timeoutMs: number, label: string): Promise<T> {
    if (this.closed) throw new DocprocError("internal", `${label}: the PDF was already closed`);
    // After an abort nothing restarts pdf.js: later renders (OCR, exports) fail at once instead of re-opening it.
    if (this.signal?.aborted) throw abortError(this.signal);
    if (body.op === "render" && !this.fullFonts) this.switchToFullFonts();
    await this.releasing;
    if (this.closed) throw new DocprocError("internal", `${label}: the PDF was already closed`);
    if (!this.host && this.suspended) {
      this.openOnce().catch(() => undefined);
    } else if (!this.host) {
      if (this.restarts >= MAX_RESTARTS) {
        throw new DocprocError("timeout", `${label}: pdf.js timed out ${MAX_RESTARTS} times on this file`, {
          details: { exhausted: true },
        });
      }
      this.restarts++;
      this.openOnce().catch(() => undefined); // awaited through `opening` below, by every concurrent caller alike
    }
    await this.opening;
    // The worker may have gone between the opening and now (another document's timeout): the caller asks again.
    if (!this.host) throw interruptedError();
    return (await this.send(this.host, body, timeoutMs, label)) as T;
  }

  /**
   * The first render: from now on the document opens with full fonts. Usually it was suspended after its text was
   * read and opens again anyway; while it is open for text only, it is closed once the requests before are done
   * (the requests that follow wait for that, then open it again).
   */
  private switchToFullFonts(): void {
    this.fullFonts = true;
    const host = this.host;
    if (!host) return;
    const before = this.releasing;
    this.releasing = (async () => {
      await before;
      await this.opening.catch(() => undefined);
      if (this.host !== host || this.closed) return; // already gone (suspended, closed, or the worker restarted)
      this.suspended = true;
      await this.release(host);
    })();
  }

  private send(
    host: PdfHost,
    body: RequestBody,
    timeoutMs: number,
    label: string,
    transfer?: Transferable[],
  ): Promise<unknown> {
    this.served++;
    return host.send(this, { ...body, doc: this.docId } as PdfRequestBody, timeoutMs, label, transfer);
  }

  /** Closes the document; a worker left without documents goes back to the idle pool. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    if (this.host) await this.release(this.host);
  }

  /**
   * Lets the document go while the file stays usable: the worker returns to the pool, and the next request opens
   * the document again (in whichever worker is free). The runner calls it once the text layers are read, so a
   * long file's pdf.js state (fonts, pages, ~150 MB for 2,000 pages) is not kept for renders that may never come.
   * A no-op while requests are in flight.
   */
  async suspend(): Promise<void> {
    if (this.closed || !this.host || this.host.busyWith(this)) return;
    this.suspended = true;
    this.releasing = this.release(this.host);
    await this.releasing;
  }

  private async release(host: PdfHost): Promise<void> {
    try {
      await this.send(host, { op: "close", collect: this.served >= COLLECT_AFTER_REQUESTS }, 5_000, "closing the PDF");
    } catch {
      return; // the worker was terminated meanwhile (kill() already let every document go)
    }
    if (this.host === host) {
      this.host = null;
      this.sharedCopy = null; // made again if the document is opened again
    }
    host.detach(this);
  }
}

/** True when the client gave up on the file (restarts exhausted) or the caller aborted. */
export function isFatal(err: unknown, signal?: AbortSignal): boolean {
  return (
    err instanceof DocprocError &&
    err.code === "timeout" &&
    (signal?.aborted === true || err.details?.exhausted === true)
  );
}

function abortError(signal: AbortSignal): DocprocError {
  const reason = signal.reason;
  if (reason instanceof DocprocError) return reason;
  return new DocprocError("timeout", "conversion was aborted", { retryable: true, cause: reason });
}
