/**
 * Turning a run's state into JSON (`saveRun`) and back (`restoreRun`), so a paused run resumes and a finished one
 * re-runs from a workflow step without converting or OCR-ing again.
 *
 * Pages keep their words, text, transform, barcodes and blank flags. What cannot be stored is a page's raster:
 * restored pages of image and PDF sources get a `render()` that opens their source file on first use (only raster
 * exports — JPG, image pages of PDF exports — and separator analysis of never-rendered pages ask for it).
 */
import { copyPage } from "../convert/page-words";
import { convertSource, type ConvertedSource } from "../stages/convert";
import type { ExportManifest } from "../exporters";
import type { Page, SourceInput } from "../model";
import type { SavedRun } from "./types";
import type { OpenFile, RunState, StageName } from "../stages/types";

export function emptyRunManifest(transactionId: string): ExportManifest {
  return { transaction_id: transactionId, profiles: {}, total_files: 0, total_size_bytes: 0 };
}

export function freshState(sources: SourceInput[], transactionId: string): RunState {
  return {
    sources,
    files: [],
    pages: [],
    spans: null,
    documents: [],
    transactionRules: [],
    manifest: emptyRunManifest(transactionId),
    warnings: [],
    errors: [],
  };
}

/**
 * `finished`: the run is over and its documents no longer change, so the saved state refers to them instead of a copy
 * (500 pages: ~20 ms); the caller MUST NOT change the outcome's documents then (the queue serialises both at once).
 * Otherwise the documents are copied: a paused or interrupted run's state must not see later changes.
 */
export function saveRun(
  state: RunState,
  next: number,
  stoppedAfter: StageName | null,
  run: number,
  opts: { finished?: boolean } = {},
): SavedRun {
  return {
    version: 1,
    next,
    stopped_after: stoppedAfter,
    run,
    files: state.files.map((f) => ({
      source_file_index: f.source_file_index,
      filename: f.filename,
      content_type: f.content_type,
      page_count: f.page_count,
      warnings: f.warnings,
      pages: f.pages.map(withoutRender),
      ...(f.attachments?.length
        ? {
            attachments: f.attachments.map((a) => ({
              filename: a.filename,
              data_base64: Buffer.from(a.data).toString("base64"),
            })),
          }
        : {}),
    })),
    spans: state.spans,
    documents: opts.finished ? state.documents : structuredClone(state.documents),
    transaction_rules: state.transactionRules,
    manifest: state.manifest,
    warnings: state.warnings,
    errors: state.errors,
  };
}

/** The page without its `render`; packed text-layer words stay packed (convert/page-words.ts). */
function withoutRender(page: Page): Page {
  const copy = copyPage(page);
  delete copy.render;
  return copy;
}

export function restoreRun(saved: SavedRun, sources: SourceInput[], password?: string): RunState {
  const files: OpenFile[] = saved.files.map((f) => {
    const file: OpenFile = {
      ...f,
      pages: f.pages.map((p) => ({ ...p })),
      attachments: f.attachments?.map((a) => ({
        filename: a.filename,
        data: new Uint8Array(Buffer.from(a.data_base64, "base64")),
      })),
    };
    const src = sources.find((s) => s.index === f.source_file_index);
    if (src) lazyRenders(file, src, password);
    return file;
  });
  return {
    sources,
    files,
    pages: files.flatMap((f) => f.pages),
    spans: saved.spans,
    documents: structuredClone(saved.documents),
    transactionRules: saved.transaction_rules,
    manifest: saved.manifest,
    warnings: [...saved.warnings],
    errors: [...saved.errors],
  };
}

/** Pages that had a raster get one again, from their source opened once on first use and closed with the file. */
function lazyRenders(file: OpenFile, src: SourceInput, password?: string): void {
  const rasterPages = file.pages.filter((p) => p.text_source !== "supplied_text" && p.text_source !== "supplied_ocr");
  if (rasterPages.length === 0) return;
  let opened: Promise<ConvertedSource> | null = null;
  const open = () =>
    (opened ??= convertSource(src, {
      firstPageNumber: file.pages[0]!.page_number,
      maxPages: file.pages.length,
      password: src.password ?? password,
    }));
  for (const page of rasterPages) {
    page.render = async () => {
      const again = (await open()).pages.find((p: Page) => p.source_file_page_number === page.source_file_page_number);
      if (!again?.render) throw new Error(`page ${page.page_number} has no image`);
      return again.render();
    };
  }
  file.close = async () => {
    if (opened) await (await opened.catch(() => null))?.close();
  };
}
