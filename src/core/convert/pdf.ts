/**
 * PDF conversion: page sizes and text layers from pdf.js (in the host worker), decided page by page.
 * Pages with a usable text layer get `text_source = "text_layer"`; the others `"none"` for the OCR stage.
 * Nothing is rendered here: `render()` rasterizes on demand, so born-digital files cost only text extraction.
 */
import { DocprocError } from "../errors.ts";
import type { ConvertedFile, Page, SourceInput } from "../model.ts";
import { checkPageCount } from "../convert-limits.ts";
import { PdfWorkerClient, spareWorkerCount } from "../engines/pdf/pdf-client.ts";
import { convertPage, type PdfConvertOptions } from "./pdf-page.ts";
import { repairPdf } from "../engines/pdf/pdf-repair.ts";
import { throwIfAborted } from "../abort.ts";
import { DEMAND_WINDOW_END, DEMAND_WARMUP_PAGES, WaitMeter } from "../engines/pdf/pdf-demand.ts";
import { pushAll } from "../arrays";
import { RequestGate } from "./request-gate.ts";
import { defaultMemoryBudget, helpersWithinBudget } from "../engines/pdf/pdf-memory-budget.ts";
import { wholeBytes } from "../source-data.ts";

export async function convertPdf(
  src: SourceInput,
  opts: PdfConvertOptions,
): Promise<ConvertedFile & { close(): Promise<void>; suspend(): Promise<void> }> {
  converting++;
  try {
    return await openAndExtract(src, opts);
  } finally {
    converting--;
  }
}

/**
 * Opens the file in a pdf.js worker. A file pdf.js refuses as corrupt is tried once more with its xref and page tree
 * rebuilt from the objects it still holds (pdf-repair.ts); the original error stands when that fails too.
 */
async function openDocument(
  src: SourceInput,
  password: string | undefined,
  opts: PdfConvertOptions,
  warnings: string[],
) {
  let client = new PdfWorkerClient(src.data, password, opts.limits.openTimeoutMs, opts.signal);
  try {
    return { client, data: src.data, opened: await client.open() };
  } catch (err) {
    await client.close();
    if (!(err instanceof DocprocError) || err.code !== "corrupt_file" || opts.signal?.aborted) throw err;
    // The whole file, opened for the repair alone when it was left in its file.
    const repaired = repairPdf(wholeBytes(src.data));
    if (!repaired) throw err;
    client = new PdfWorkerClient(repaired.data, password, opts.limits.openTimeoutMs, opts.signal);
    try {
      const opened = await client.open();
      if (opened.numPages < 1) throw err;
      warnings.push(
        `the file is damaged (${err.message.replace(/^not a readable PDF: /, "")}): its cross-reference table and page tree were rebuilt from the ${repaired.found} page object(s) found` +
          (repaired.padded ? `; ${repaired.padded} page(s) the file declares are missing and left blank` : ""),
      );
      return { client, data: repaired.data, opened, lost: repaired.lost };
    } catch {
      await client.close();
      throw err;
    }
  }
}

async function openAndExtract(
  src: SourceInput,
  opts: PdfConvertOptions,
): Promise<ConvertedFile & { close(): Promise<void>; suspend(): Promise<void> }> {
  const password = opts.password ?? src.password;
  const warnings: string[] = [];
  const { client, data, opened, lost } = await openDocument(src, password, opts, warnings);
  pushAll(warnings, opened.warnings);
  const pageTotal = opened.numPages;
  if (pageTotal < 1) {
    await client.close();
    throw new DocprocError("corrupt_file", "the PDF has no pages");
  }
  const wanted = opts.maxPages === null ? pageTotal : Math.min(pageTotal, Math.max(0, opts.maxPages));
  let pages: Page[];
  try {
    checkPageCount(wanted, pageTotal, opts.limits);
    const file = { attachments: opened.attachments.length, pages: wanted };
    pages = await convertPages(
      client,
      { ...src, data },
      wanted,
      opts,
      warnings,
      password,
      opts.onPage && ((page: Page) => opts.onPage!(page, file)),
    );
    markLost(pages, lost ?? [], warnings);
  } catch (err) {
    await client.close();
    throw err;
  }
  return {
    source_file_index: src.index,
    filename: src.filename,
    content_type: "application/pdf",
    page_count: pageTotal,
    pages,
    warnings,
    attachments: opened.attachments,
    close: () => client.close(),
    suspend: () => client.suspend(),
  };
}

/** Pages of a rebuilt file whose content is gone (pdf-repair.ts `lost`) read as empty: they are unreadable. */
function markLost(pages: Page[], lost: number[], warnings: string[]): void {
  for (const n of lost) {
    const page = pages.find((p) => p.source_file_page_number === n);
    if (!page || page.unreadable !== undefined) continue;
    page.unreadable = "its content is missing from the file (cut short or damaged)";
    warnings.push(`page ${n}: could not be read (${page.unreadable}); it is treated as an empty page`);
  }
}

// Below this many pages a second pdf.js worker costs more than it saves, even a warm one from the pool.
const PARALLEL_MIN_PAGES = 24;
// A cold helper costs ~0.13 s of CPU to start and 0.3-0.4 s of JIT compilation of pdf.js (each worker has its own
// VM); meanwhile one worker already keeps ~1.5 cores busy (its JIT threads) and then runs ~1 ms per page. Measured
// on two cores with other work around (load ~3): 500 pages one worker 0.96-1.47 s wall and 1.45 s CPU, two workers
// 1.19-1.90 s and 2.2 s; 2,000 pages 2.9 s either way, 3.9 s vs 5.2 s CPU. So a cold helper only for very long
// files converted alone (an idle many-core machine gains there), and only as many as fit the memory budget
// (pdf-memory-budget.ts); in a batch, or below this size, only spare (idle or warming) workers help.
const COLD_HELPER_MIN_PAGES = 1000;

/**
 * Extraction loops per worker, each with one page request out: the worker answers them in order, and the thread
 * that takes the pages (reading ahead: classifying, extracting a finished document,
 * core/stages/convert/read-ahead.ts) may be busy for tens of milliseconds at a time, far longer than a page takes in
 * pdf.js (~1.8 ms). With two loops the worker ran dry during such work: 500 real invoice pages, fresh process, idle,
 * 1.62-1.65 s with two loops, 1.45-1.53
 * with four, 1.40-1.50 with eight, 1.42-1.51 with sixteen, the same CPU time and identical results. Only the request
 * the worker is running is timed (pdf-host.ts), so queued pages never time out for waiting.
 */
const LOOPS = 8;
/** Loops that ask for their next pages together, waking the worker once for all (request-gate.ts). */
const BURST = 4;

/** PDFs being opened or having their text extracted right now, in this process (convertPdf counts them). */
let converting = 0;

/**
 * Text extraction of pages 1..wanted. Long files are shared between `limits.pdfWorkers` workers (each opens its
 * own copy of the document; pdf.js is single-threaded), which roughly doubles throughput on two cores. Rendering
 * later always goes through the primary client. With a page consumer (`onPage`), helpers join only once this
 * thread is seen waiting for pdf.js (pdf-demand.ts); without one they start at once.
 */
async function convertPages(
  primary: PdfWorkerClient,
  src: SourceInput,
  wanted: number,
  opts: PdfConvertOptions,
  warnings: string[],
  password: string | undefined,
  onPage?: (page: Page) => void,
): Promise<Page[]> {
  const alone = converting === 1; // this file only
  const helpers = (remaining: number) => {
    const wantedHelpers = remaining >= PARALLEL_MIN_PAGES ? Math.max(0, opts.limits.pdfWorkers - 1) : 0;
    const count =
      alone && wanted >= COLD_HELPER_MIN_PAGES
        ? helpersWithinBudget(wantedHelpers, {
            rss: process.memoryUsage.rss(),
            pagesLeft: remaining,
            budget: opts.limits.memoryBudgetBytes ?? defaultMemoryBudget(),
          })
        : Math.min(wantedHelpers, spareWorkerCount());
    return openHelpers(count, primary, password, opts);
  };
  return extractAll(primary, src, wanted, opts, warnings, helpers, onPage);
}

async function extractAll(
  primary: PdfWorkerClient,
  src: SourceInput,
  wanted: number,
  opts: PdfConvertOptions,
  warnings: string[],
  openHelpersFor: (remaining: number) => Array<Promise<PdfWorkerClient | null>>,
  onPage?: (page: Page) => void,
): Promise<Page[]> {
  const pages = new Array<Page>(wanted);
  const pageWarnings = new Array<string[]>(wanted);
  let next = 1;
  // LOOPS loops per worker keep requests queued behind the running one, so a worker never idles waiting for the
  // thread that takes the pages.
  const meter = onPage && wanted >= DEMAND_WINDOW_END + PARALLEL_MIN_PAGES ? new WaitMeter(LOOPS) : null;
  const helpers: Array<Promise<PdfWorkerClient | null>> = [];
  const joined: Promise<void>[] = [];
  const join = (openings: Array<Promise<PdfWorkerClient | null>>) => {
    for (const opening of openings) {
      helpers.push(opening);
      // A helper joins when it has opened its copy (~40 ms for a 500-page file, a tenth of the whole extraction).
      const work = opening.then((helper) => (helper ? both(helper, false) : undefined));
      work.catch(() => undefined); // awaited after the primary's loops; a failure must not go unhandled meanwhile
      joined.push(work);
    }
  };
  const drain = async (client: PdfWorkerClient, metered: boolean, gate: RequestGate) => {
    let done: Page | null = null;
    const waitFor = <T>(p: Promise<T>) => (metered && meter ? meter.wait(p) : p);
    try {
      while (next <= wanted) {
        if (done && onPage && !gate.open) {
          // Not asking yet (request-gate.ts): the page is handed on now rather than after the wait.
          onPage(done);
          done = null;
        }
        await waitFor(gate.turn());
        if (next > wanted) break;
        const n = next++;
        throwIfAborted(opts.signal, "convert");
        pageWarnings[n - 1] = [];
        const converting = convertPage(client, primary, src, n, opts, pageWarnings[n - 1]);
        gate.asked();
        // The previous page is handed on after this page was asked for (the request goes out once the handler
        // returns; the other loop's request keeps the worker busy meanwhile).
        if (done && onPage) onPage(done);
        try {
          pages[n - 1] = done = await waitFor(converting);
        } finally {
          gate.answered();
        }
        if (metered && meter && n === DEMAND_WARMUP_PAGES) meter.restart();
        if (metered && meter && n === DEMAND_WINDOW_END && meter.helpersWanted()) join(openHelpersFor(wanted - n));
      }
    } finally {
      gate.left();
    }
    if (done && onPage && !opts.signal?.aborted) onPage(done);
  };
  const both = (client: PdfWorkerClient, metered: boolean) => {
    const gate = new RequestGate(BURST);
    return Promise.all(Array.from({ length: LOOPS }, () => drain(client, metered, gate))).then(() => undefined);
  };
  if (!meter) join(openHelpersFor(wanted));
  try {
    await both(primary, true);
    await Promise.all(joined);
  } finally {
    await closeHelpers(helpers, primary);
  }
  for (const list of pageWarnings) pushAll(warnings, list ?? []);
  return pages;
}

/**
 * The number of workers reading the primary's document, told to a worker reading it: each keeps that share of
 * pdf.js's memory bounds (pdf-worker-gc.ts `readersOf`), so a helper adds its VM, not a second cache and garbage
 * step. Memory only: a failure changes nothing the pages say.
 */
const readBy = async (client: PdfWorkerClient, readers: number) => {
  // A worker that was lost (a timeout, an abort) starts with whole bounds: nothing is opened again just to say so.
  if (client.attached)
    await client.request({ op: "readers", readers }, 5_000, "sharing pdf.js memory").catch(() => undefined);
};

/** Closes the helpers; the primary, alone again, keeps the whole of pdf.js's memory bounds (rendering reads it). */
async function closeHelpers(helpers: Array<Promise<PdfWorkerClient | null>>, primary: PdfWorkerClient) {
  const opened = await Promise.all(
    helpers.map(async (opening) => {
      const helper = await opening;
      await helper?.close();
      return helper !== null;
    }),
  );
  if (opened.some(Boolean)) await readBy(primary, 1);
}

/** Helpers opening their own copy of the document; null for one that could not (the primary carries on alone). */
function openHelpers(
  count: number,
  primary: PdfWorkerClient,
  password: string | undefined,
  opts: PdfConvertOptions,
): Array<Promise<PdfWorkerClient | null>> {
  const data = primary.bytes();
  return Array.from({ length: count }, async () => {
    // A helper's document keeps its worker to itself: sharing it would only slow the primary's pages down. Its
    // bytes are the primary's (in shared memory when the file is large: no copy per worker, pdf-bytes.ts).
    const helper = new PdfWorkerClient(data, password, opts.limits.openTimeoutMs, opts.signal, { share: false });
    try {
      await helper.open();
      await Promise.all([readBy(helper, count + 1), readBy(primary, count + 1)]);
      return helper;
    } catch {
      await helper.close(); // the primary opened the file, so this is a resource problem: carry on without it
      return null;
    }
  });
}
