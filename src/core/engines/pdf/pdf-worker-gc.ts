/**
 * Garbage paced in a pdf.js worker (issue 34, memory bounded by design). Reading a page's text decodes its content
 * stream and its fonts' streams (a CID font's file, CMaps, width arrays): a few MB of objects and typed arrays a page
 * that are garbage once the page's text is taken, some only after pdf.js let go of them a few pages later (its object
 * cache, pdfjs-memory-patches.ts), by which time they sit in the old generation. JavaScriptCore's own collections
 * left those to pile up: on 2,000 pages of a joined CID-font file (~5 MB of garbage a page) the worker's heap reached
 * 1.7 GB with ~100 MB alive, and the process 1.3 GB of RSS.
 *
 * So the worker watches its memory and collects in full when it grows: after a request, once its heap grew by
 * GROWTH_BYTES since the last look, it checks the process's resident memory, and collects only when that grew by
 * GROWTH_BYTES too since the last collection. The heap's size is the figure JavaScriptCore stored at its last
 * collection (`process.memoryUsage().heapUsed`: ~10 µs with the resident memory read beside it), not `bun:jsc`'s
 * `heapSize()`, which walks every block of the heap to count its marked cells (0.1-0.3 ms a call on a 25-110 MB
 * worker heap, 2 ms on 200 MB) and ran once per page: on the 2,000-page pdfunite shape the pdf.js thread took
 * 6.5-6.8 CPU-s with it, 5.9-6.2 without. Right after a collection the two are the same figure; between
 * collections which objects live is only known from the last one anyway. Memory the collection freed is reused by
 * the pages after it, so RSS stops growing and collections stop too: their cost follows the memory the file would
 * take, not its pages (a file of shared fonts is seldom collected). Collections never change what pdf.js answers: only unreachable
 * objects go.
 */
import { XREF_CACHE_MAX } from "./pdfjs-memory-patches.ts";

/**
 * Growth of the heap (then of resident memory) since the last look (collection) that triggers the next. 32 MB
 * (was 64): with a long file's two workers, each may hold this much garbage at once; on the 2,000-page CID shape
 * read from its file, peak RSS 518-527 MB against 523-607 MB, the same CPU time (22.99-23.06 against 22.96-23.87 s).
 */
export const GROWTH_BYTES = 32 * 1024 * 1024;

export interface GcProbe {
  heap(): number;
  rss(): number;
  collect(): void;
}

/** The worker's own probe: every reading is a stored counter, none walks the heap (see above). */
export const JSC_PROBE: GcProbe = {
  heap: () => process.memoryUsage().heapUsed,
  rss: () => process.memoryUsage.rss(),
  collect: () => Bun.gc(true),
};

export class GcPacer {
  private heapBase: number;
  private rssBase: number;
  /** Full collections run so far (the worker's stats report them). */
  collections = 0;

  constructor(
    private readonly probe: GcProbe = JSC_PROBE,
    private growth = GROWTH_BYTES,
  ) {
    this.heapBase = probe.heap();
    this.rssBase = probe.rss();
  }

  /** The step now: GROWTH_BYTES, or a share of it while the worker reads a document with others (readersOf). */
  get growthBytes(): number {
    return this.growth;
  }

  set growthBytes(bytes: number) {
    this.growth = bytes;
  }

  /** After a request: a full collection when both the heap and resident memory grew by `growth` bytes. */
  step(): void {
    if (this.probe.heap() - this.heapBase < this.growth) return;
    if (this.probe.rss() - this.rssBase >= this.growth) {
      this.probe.collect();
      this.collections++;
      this.rssBase = this.probe.rss();
    }
    this.heapBase = this.probe.heap();
  }
}

/**
 * A long file read by several workers at once (a primary and its helpers, src/core/convert/pdf.ts): each worker's
 * pdf.js keeps its XRef cache and garbage up to the bounds above, so a helper added a second set of them (2,000 pages
 * of the CID shape: 448 MB peak alone, 606-652 MB with a helper). A worker told that `readers` workers read its
 * document keeps 1/readers of each bound while that document is open, so what pdf.js holds for one document does
 * not grow with the workers reading it (the CID shape with a helper: 507 MB). Memory only: a dropped object is parsed
 * again, a collection frees only garbage, so no answer changes.
 */
const readers = new Map<number, number>();

/** Document `doc` is read by `count` workers (or closed: `count` 0); the bounds follow the largest count open. */
export function readersOf(pacer: GcPacer, doc: number, count: number): void {
  if (count === 0) pagesSinceCleanup.delete(doc);
  if (count > 1) readers.set(doc, count);
  else readers.delete(doc);
  let most = 1;
  for (const n of readers.values()) most = Math.max(most, n);
  pacer.growthBytes = Math.floor(GROWTH_BYTES / most);
  (globalThis as { docprocXrefMax?: number }).docprocXrefMax = Math.floor(XREF_CACHE_MAX / most);
}

/**
 * Per-page state pdf.js keeps for a document's lifetime, emptied every CLEANUP_EVERY_PAGES pages (issue 34). Besides
 * its bounded caches (pdfjs-memory-patches.ts), pdf.js keeps per document read: a Ref object and its key for every
 * object number it parsed (a global intern table, ~30 a page on the CID shape, ~16 on joined invoices), the page
 * tree's index caches (two entries a page) and every font it translated. Its own `cleanup()` (what a viewer calls
 * when idle) empties them all and the document reads on: the next page fetches what it needs again from the file,
 * and finds its fonts among those shared by content, which the cleanup keeps (pdfjs-memory-patches.ts). Only for a
 * document read for its text (never rendered, so no page is drawing) and alone in its worker (the intern tables are
 * the worker's).
 */
export const CLEANUP_EVERY_PAGES = 256;

const pagesSinceCleanup = new Map<number, number>();
let cleanups = 0;

/** Cleanups run so far (the worker's stats report them). */
export const cacheCleanups = (): number => cleanups;

/** After page `doc` read a page: empties pdf.js's caches when due and the document is alone and text-only. */
export async function pageRead(
  doc: number,
  proxy: { cleanup(): Promise<void> } | undefined,
  alone: boolean,
  textOnly: boolean,
): Promise<void> {
  const read = (pagesSinceCleanup.get(doc) ?? 0) + 1;
  pagesSinceCleanup.set(doc, read);
  if (read < CLEANUP_EVERY_PAGES || !proxy || !alone || !textOnly) return;
  pagesSinceCleanup.set(doc, 0);
  cleanups++;
  const flags = globalThis as { docprocKeepSharedFonts?: boolean };
  flags.docprocKeepSharedFonts = true; // fonts shared by content stay (CLEANUP_KEEPS_SHARED_FONTS)
  try {
    await proxy.cleanup();
  } catch {
    // A failed cleanup leaves the caches as they were.
  } finally {
    flags.docprocKeepSharedFonts = false;
  }
}
