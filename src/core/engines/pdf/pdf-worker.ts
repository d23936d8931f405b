/**
 * Bun Worker that hosts pdf.js. Every pdf.js call of docproc runs here so the main thread can terminate it: pdf.js
 * in Bun/Node has no real worker of its own (it runs a "fake worker" on the calling thread), so a parser stuck in a
 * synchronous loop on a hostile file would otherwise freeze the whole process, and Promise.race could not help.
 * Several documents may be open at once (small files of a batch share one worker, see pdf-host.ts); requests are
 * answered one after another, in the order they came.
 */
import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { boundedScale } from "../../convert-limits.ts";
import { orderWordsIntoLines } from "../../word-lines.ts";
import { appendWordsOfRun, type FontStyle, type TextRun } from "./text-layer.ts";
import { judgeTextLayer } from "./text-layer-verdict.ts";
import {
  packWords,
  unpackWords,
  type OpenResult,
  type PageParams,
  type PageResult,
  type PdfRequest,
  type PdfResponse,
  type RenderResult,
} from "./pdf-protocol.ts";
import {
  adoptHead,
  forgetHeadPages,
  headStartDocId,
  startHead,
  takeHeadPage,
  type HeadStartHost,
} from "./pdf-head-start.ts";
import type { Word } from "../../model.ts";
import { loadPdfjsDisplayModule, loadPdfjsWorkerModule } from "./pdfjs-patched-worker.ts";
import { importWithoutCanvas, loadCanvas } from "./pdfjs-canvas.ts";
import { paintsImages, SPARSE_TEXT } from "./pdf-page-images.ts";
import { ownScanRaster } from "./pdf-scan-image.ts";
import { workerStats } from "./pdfjs-memory-patches.ts";
import { SHEET_MAX_TEXT } from "../../separator-sheet.ts";
import { documentOptions, installChunkClone, readPixels } from "./pdf-worker-globals.ts";
import { cacheCleanups, GcPacer, pageRead, readersOf } from "./pdf-worker-gc.ts";
import { closeFileSource, fileReadCounts, fileSourceData, openFileSources } from "./pdf-file-source.ts";
import { adoptFdTable } from "./pdf-worker-fds.ts";

// Hand pdf.js its (instrumented) worker code directly; pdf.js picks up globalThis.pdfjsWorker for its fake worker.
// Not a top-level await: messages that arrive before `onmessage` is set would be lost. The canvas addon is left out
// until a page is rendered (see pdfjs-canvas.ts): text extraction never needs it.
let pdfjs: typeof Pdfjs;
const ready = Promise.all([
  loadPdfjsWorkerModule(),
  importWithoutCanvas(() => loadPdfjsDisplayModule() as Promise<typeof Pdfjs>),
]).then(([{ WorkerMessageHandler }, api]) => {
  pdfjs = api;
  (globalThis as Record<string, unknown>).pdfjsWorker = { WorkerMessageHandler };
});

declare const self: Worker;

// Installed on this thread only, which runs nothing but pdf.js.
installChunkClone();

const docs = new Map<number, Pdfjs.PDFDocumentProxy>();
/**
 * pdf.js ids ("g_d3") of the documents opened for their text only, read by the patched font translation
 * (TEXT_ONLY_FONTS in pdfjs-font-patches.ts): their embedded fonts are not rebuilt into files a renderer could use.
 */
const textOnlyDocs = new Set<string>();
(globalThis as Record<string, unknown>).docprocTextOnlyDocs = textOnlyDocs;
const textOnlyKey = (doc: Pdfjs.PDFDocumentProxy) => `g_${doc.loadingTask.docId}`;

async function open(req: Extract<PdfRequest, { op: "open" }>): Promise<OpenResult> {
  const { doc: docId, password, textOnly = false } = req;
  await closeDocument(docId);
  const data = req.file ? fileSourceData(docId, req.file) : req.data;
  const head = docId === headStartDocId ? null : await adoptHead(headHost, docId, data, password, textOnly);
  if (head) {
    docs.set(docId, docs.get(headStartDocId)!);
    docs.delete(headStartDocId);
    return head;
  }
  const task = pdfjs.getDocument(documentOptions(data, password));
  // Listed before any page is loaded: fonts are translated when pages are.
  if (textOnly) textOnlyDocs.add(`g_${task.docId}`);
  const doc = await task.promise.catch((err) => {
    textOnlyDocs.delete(`g_${task.docId}`);
    closeFileSource(docId);
    throw err;
  });
  docs.set(docId, doc);
  const warnings: string[] = [];
  const attachments: OpenResult["attachments"] = [];
  try {
    // pdf.js 6 lists attachments by id and hands out their bytes one by one.
    const found = await doc.getAttachments();
    for (const [id, item] of found ?? new Map()) {
      const content = (await doc.getAttachmentContent(id)) as unknown;
      const bytes = content instanceof Uint8Array ? content : (content as { content?: Uint8Array } | null)?.content;
      if (bytes) attachments.push({ filename: item.filename ?? id, data: bytes });
    }
  } catch (err) {
    warnings.push(`attachments could not be read: ${(err as Error).message}`);
  }
  return { numPages: doc.numPages, attachments, warnings };
}

async function extractPage(req: { doc: number; pageNumber: number } & PageParams): Promise<PageResult> {
  const early = takeHeadPage(req.doc, req.pageNumber, req);
  if (early) return early;
  const page = await requireDoc(req.doc).getPage(req.pageNumber);
  try {
    const unit = page.getViewport({ scale: 1 });
    const scale = boundedScale(unit.width, unit.height, req.preferredScale, req);
    const viewport = page.getViewport({ scale });
    const content = await page.getTextContent({ includeMarkedContent: false });
    const styles = content.styles as Record<string, FontStyle>;
    const words: Word[] = [];
    for (const item of content.items) {
      if (!("str" in item) || item.str.trim() === "") continue;
      appendWordsOfRun(words, item as TextRun, styles[item.fontName], viewport.transform);
    }
    let verdict = judgeTextLayer(words);
    // Pages with little text are asked whether they paint images: a scan under a stamp needs OCR, and only a page
    // with an image can carry a scanned separator sheet (the split stage renders no other born-digital page).
    const images =
      verdict.usable && words.reduce((n, w) => n + w.text.length, 0) <= SHEET_MAX_TEXT
        ? await paintsImages(pdfjs, page)
        : undefined;
    if (verdict.usable && verdict.alnum < SPARSE_TEXT && images) {
      verdict = {
        ...verdict,
        usable: false,
        reason: `only ${verdict.alnum} letters/digits of text over an image (a scan with a stamp?)`,
      };
    }
    const usableWords = verdict.usable ? words : [];
    const text = orderWordsIntoLines(usableWords);
    const packed = packWords(usableWords, text);
    if (req.wordsJson) packed.json = JSON.stringify(unpackWords(packed, text));
    const result: PageResult = {
      width: unit.width,
      height: unit.height,
      scale,
      usable: verdict.usable,
      reason: verdict.reason,
      words: packed,
      text,
    };
    if (verdict.usable && images !== undefined) result.paintsImages = images;
    return result;
  } finally {
    page.cleanup();
  }
}

async function renderPage(req: Extract<PdfRequest, { op: "render" }>): Promise<RenderResult> {
  const doc = requireDoc(req.doc);
  // Its fonts hold no glyph programs: drawing would silently leave text out (the client opens it again first).
  if (textOnlyDocs.has(textOnlyKey(doc)))
    throw Object.assign(new Error("the document was opened for its text only"), { name: "TextOnlyDocument" });
  const page = await doc.getPage(req.pageNumber);
  const own = await ownScanRaster(pdfjs, doc, page, req);
  if (own) return own;
  const { createCanvas } = await loadCanvas();
  const canvas = createCanvas(req.width, req.height);
  try {
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, req.width, req.height);
    const viewport = page.getViewport({ scale: req.scale });
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: ctx as unknown as CanvasRenderingContext2D,
      viewport,
      // Form field appearances are part of what a reader sees, so OCR must see them too.
      annotationMode: pdfjs.AnnotationMode.ENABLE,
    }).promise;
    return readPixels(ctx, req.width, req.height, req.grayscale);
  } finally {
    page.cleanup();
    canvas.width = 1; // releases the native bitmap now rather than at the next GC
  }
}

function requireDoc(id: number): Pdfjs.PDFDocumentProxy {
  const doc = docs.get(id);
  if (!doc) throw new Error("no document is open");
  return doc;
}

async function closeDocument(id: number): Promise<void> {
  forgetHeadPages(id);
  const current = docs.get(id);
  docs.delete(id);
  if (current) textOnlyDocs.delete(textOnlyKey(current));
  await current?.loadingTask.destroy().catch(() => undefined);
  closeFileSource(id);
  readersOf(pacer, id, 0);
}

async function handle(req: PdfRequest): Promise<{ result: PdfResponse; transfer: ArrayBuffer[] }> {
  try {
    switch (req.op) {
      case "open":
        return {
          result: { id: req.id, ok: true, result: await open(req) },
          transfer: [],
        };
      case "page": {
        const page = await extractPage(req);
        return {
          result: { id: req.id, ok: true, result: page },
          transfer: [page.words.boxes.buffer as ArrayBuffer, page.words.lines.buffer as ArrayBuffer],
        };
      }
      case "render": {
        const raster = await renderPage(req);
        return { result: { id: req.id, ok: true, result: raster }, transfer: [raster.data.buffer as ArrayBuffer] };
      }
      case "head-start":
      case "fds":
        return { result: { id: req.id, ok: true, result: null }, transfer: [] }; // handled by onmessage, unanswered
      case "stats":
        return {
          result: {
            id: req.id,
            ok: true,
            result: {
              ...workerStats(),
              collections: pacer.collections,
              gcStepBytes: pacer.growthBytes,
              fileSources: openFileSources(),
              fileReads: { ...fileReadCounts },
              cacheCleanups: cacheCleanups(),
            },
          },
          transfer: [],
        };
      case "readers":
        readersOf(pacer, req.doc, req.readers);
        return { result: { id: req.id, ok: true, result: null }, transfer: [] };
      case "close":
        await closeDocument(req.doc);
        return { result: { id: req.id, ok: true, result: null }, transfer: [] };
    }
  } catch (err) {
    const e = err as { name?: string; message?: string; code?: number };
    const failure = {
      name: e?.name ?? "Error",
      message: e?.message ?? String(err),
      passwordCode: e?.name === "PasswordException" ? e.code : undefined,
    };
    return { result: { id: req.id, ok: false, error: failure }, transfer: [] };
  }
}

// Requests run one after another, in order: the host (pdf-host.ts) times only the one at the head of its queue,
// which must be the one running here.
let queue: Promise<void> = ready;

const headHost: HeadStartHost = {
  open: (doc, data) => open({ id: 0, doc, op: "open", data, textOnly: true }),
  page: (docId, pageNumber, params) => extractPage({ doc: docId, pageNumber, ...params }),
  close: closeDocument,
  // A head start's failure is never the next request's: it is swallowed (the queue must not turn rejected). Its
  // steps chain as promise jobs, which would keep message events waiting: each first lets the event loop run.
  later: (step) => {
    queue = queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => step().catch(() => undefined));
  },
  busy: () => waiting > 0,
};
/** Full collections when the worker's memory grows (pdf-worker-gc.ts). */
const pacer = new GcPacer();
/** Requests received and not yet started. */
let waiting = 0;

self.onmessage = (event: MessageEvent<PdfRequest>) => {
  const req = event.data;
  if (req.op === "fds") return adoptFdTable(req.table);
  if (req.op === "head-start") {
    const { data, pages, preferredScale, maxSidePx, maxRasterPixels } = req;
    // Answered (id 0, which hosts ignore) once it stops: prewarmPdfWorkers settles then.
    const done = () => self.postMessage({ id: req.id, ok: true, result: null });
    queue = queue.then(() =>
      startHead(headHost, data, pages, { preferredScale, maxSidePx, maxRasterPixels }, done).catch(done),
    );
    return;
  }
  waiting++;
  queue = queue.then(async () => {
    waiting--;
    const { result, transfer } = await handle(req);
    self.postMessage(result, transfer);
    // What pdf.js built for a long document (~150 MB for 2,000 pages of prose) is garbage once it is closed; an idle
    // pooled worker would hold it until its next document. Collected after answering (the caller need not wait).
    if (req.op === "close" && req.collect) Bun.gc(true);
    else if (req.op === "page" || req.op === "render") pacer.step();
    const doc = req.op === "page" ? docs.get(req.doc) : undefined;
    if (doc) await pageRead(req.doc, doc, docs.size === 1, textOnlyDocs.has(textOnlyKey(doc)));
  });
};
