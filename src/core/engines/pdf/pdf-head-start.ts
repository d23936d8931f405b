/**
 * The head start of a pdf.js worker (runs inside pdf-worker.ts): `docproc process file.pdf` hands the file to the
 * worker while the main thread is still loading the command framework and the pipeline (~0.15 s, src/cli/early-pdf.ts),
 * so pdf.js opens it and reads its first pages meanwhile instead of idling until the pipeline asks. Measured on
 * 500 real invoice pages before this existed: the worker had pdf.js loaded ~50 ms before the document's open
 * arrived, then took ~25 ms to open it and ~40 ms for the (cold) first page.
 *
 * Contract: the head start's work is used only by an `open` of the very same bytes (compared in full), without a
 * password, for text extraction (textOnly), and a page only by a request with the same parameters: it is then
 * exactly what that request would have computed, only earlier. Any other `open` in this worker discards it. Pages
 * are read one per turn of the worker's queue, so requests that arrive meanwhile are never kept waiting for more
 * than one page, and reading stops once the document is adopted (its own requests take over) or discarded.
 */
import type { OpenResult, PageParams, PageResult } from "./pdf-protocol.ts";

/** What the worker lends the head start. */
export interface HeadStartHost {
  open(docId: number, data: Uint8Array): Promise<OpenResult>;
  page(docId: number, pageNumber: number, params: PageParams): Promise<PageResult>;
  close(docId: number): Promise<void>;
  /** Runs `step` after everything queued in the worker so far, once the worker has looked at its messages. */
  later(step: () => Promise<void>): void;
  /** Whether a request is waiting in the worker's queue. */
  busy(): boolean;
}

/** The id the document has while nobody owns it (clients number theirs from 1). */
const HEAD_START_DOC = -1;

interface Started {
  data: Uint8Array;
  params: PageParams;
  last: number;
  opened: OpenResult | null;
  pages: Map<number, PageResult>;
  stopped: boolean;
}

let started: Started | null = null;
/** Pages read ahead, per adopting document, until asked for. */
const adopted = new Map<number, { params: PageParams; pages: Map<number, PageResult> }>();

/** Opens `data` and reads pages 1..`pages` one per queue turn; `done` once it stops (read them all, adopted, failed). */
export async function startHead(
  host: HeadStartHost,
  data: Uint8Array,
  pages: number,
  params: PageParams,
  done: () => void,
): Promise<void> {
  await discard(host);
  const head: Started = { data: data.slice(), params, last: pages, opened: null, pages: new Map(), stopped: false };
  started = head;
  try {
    head.opened = await host.open(HEAD_START_DOC, data);
  } catch {
    if (started === head) started = null; // the real open will report what is wrong with the file
    done();
    return;
  }
  head.last = Math.min(head.last, head.opened.numPages);
  const step = async (n: number): Promise<void> => {
    if (head.stopped || n > head.last) return done();
    // A request came in meanwhile (the run's own open, typically): it goes first.
    if (host.busy()) return host.later(() => step(n));
    try {
      head.pages.set(n, await host.page(HEAD_START_DOC, n, params));
    } catch {
      return done(); // the page's own request meets the same problem and reports it
    }
    host.later(() => step(n + 1));
  };
  host.later(() => step(1));
}

/**
 * Called by every `open`: the head start's document and pages when they are these bytes, else null (and the head
 * start, if any, is let go).
 */
export async function adoptHead(
  host: HeadStartHost,
  docId: number,
  data: Uint8Array,
  password: string | undefined,
  textOnly: boolean,
): Promise<OpenResult | null> {
  const head = started;
  if (!head) return null;
  if (!head.opened || password || !textOnly || !sameBytes(head.data, data)) {
    await discard(host);
    return null;
  }
  started = null;
  head.stopped = true;
  if (head.pages.size) adopted.set(docId, { params: head.params, pages: head.pages });
  return { ...head.opened, headStartPages: head.pages.size };
}

/** A page read during the head start for this document and these parameters (handed out once), else undefined. */
export function takeHeadPage(docId: number, pageNumber: number, params: PageParams): PageResult | undefined {
  const entry = adopted.get(docId);
  if (!entry || !sameParams(entry.params, params)) return undefined;
  const page = entry.pages.get(pageNumber);
  if (!page) return undefined;
  entry.pages.delete(pageNumber);
  if (entry.pages.size === 0) adopted.delete(docId);
  return page;
}

/** The document `docId` was closed: its unread pages go. */
export function forgetHeadPages(docId: number): void {
  adopted.delete(docId);
}

/** The id under which the worker keeps the head start's document until it is adopted. */
export const headStartDocId = HEAD_START_DOC;

async function discard(host: HeadStartHost): Promise<void> {
  const head = started;
  if (!head) return;
  started = null;
  head.stopped = true;
  if (head.opened) await host.close(HEAD_START_DOC);
}

const sameParams = (a: PageParams, b: PageParams) =>
  a.preferredScale === b.preferredScale && a.maxSidePx === b.maxSidePx && a.maxRasterPixels === b.maxRasterPixels;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.compare(a, b) === 0;
}
