/**
 * The review store of `docproc review <folder>` (the interface the server's review routes use,
 * server/services/review-store.ts) over the `<transaction_id>_data.json` results files `docproc process` wrote.
 *
 * - Page images and words come from the original file (`transaction.metadata.source_path`, recorded by `process`):
 *   a text layer is read again, scanned pages are OCR'd again, once, on the first request for the transaction.
 *   Without the original a page shows its field boxes on a blank page and values can still be typed.
 * - Every action rewrites the results file (with `last_human_review`) and re-runs the export profiles into the
 *   folder; a finished review calls the review-finished hooks.
 * - A write names the version it is based on; a stale one is `stale_version` (409), as on the server. The state
 *   lives in memory while the command runs; the files on disk are the durable part.
 */
import path from "node:path";
import sharp from "sharp";
import type { OcrEngine } from "../core/engines/ocr";
import { DocprocError } from "../core/errors";
import { folderSink } from "../core/exporters";
import type { ResultsFile, SourceInput } from "../core/model";
import type { ProjectSettings } from "../core/project";
import {
  applyReviewAction,
  parseReviewAction,
  type ReviewEntry,
  type ReviewState,
} from "../core/stages/review/actions";
import { announceReviewFinished, type ReviewFinishedHook } from "../core/stages/review/hooks";
import { buildReviewView, needsReviewCount } from "../core/stages/review/view";
import { loadResultsFile, rerunExports } from "../core/stages/export";
import { readPages } from "../core/stages/ocr/read-pages";
import type { PageImage, ReviewStore } from "../server/services/review-store";
import { expectedVersionOf } from "../server/services/review";

export interface FolderReviewOptions {
  project: ProjectSettings;
  /** Called on first need (only scanned pages need OCR). */
  ocr: () => Promise<OcrEngine>;
  onReviewFinished: ReviewFinishedHook[];
  log: (line: string) => void;
}

export interface LocalTransaction {
  file: string;
  state: ReviewState;
  sources: SourceInput[];
  images: Map<number, Uint8Array>;
  prepared: Promise<void> | null;
}

export interface FolderReviewStore extends ReviewStore {
  transactions: Map<string, LocalTransaction>;
  /** `GET /transactions` of the review page: every results file of the folder. */
  list(): { items: unknown[]; total: number; limit: number; offset: number };
}

/** Reads the folder's results files (a JSON profile without pages is not a full results file and is skipped). */
export async function loadFolder(folder: string): Promise<Map<string, LocalTransaction>> {
  const out = new Map<string, LocalTransaction>();
  for await (const name of new Bun.Glob("*_data.json").scan({ cwd: folder })) {
    const { results, file } = await loadResultsFile(path.join(folder, name));
    if (!results.pages) continue;
    const previous = results.transaction.last_human_review as { changes?: ReviewEntry[] } | undefined;
    const state: ReviewState = { version: 1, results, history: previous?.changes ?? [], finished_at: null };
    out.set(results.transaction_id, {
      file,
      state,
      sources: await originalSources(results),
      images: new Map(),
      prepared: null,
    });
  }
  return out;
}

async function originalSources(results: ResultsFile): Promise<SourceInput[]> {
  const sourcePath = results.transaction.metadata?.source_path;
  const filename = results.transaction.source_file_names[0];
  if (typeof sourcePath !== "string" || !filename || results.transaction.source_file_names.length !== 1) return [];
  const file = Bun.file(sourcePath);
  if (!(await file.exists())) return [];
  return [{ index: 0, filename, data: await file.bytes(), split_policy: "inherit" }];
}

/** Words and images of the pages, read again from the original file once (OCR only for pages that needed it). */
function prepare(tx: LocalTransaction, opts: FolderReviewOptions): Promise<void> {
  tx.prepared ??= (async () => {
    const src = tx.sources[0];
    const pages = tx.state.results.pages ?? [];
    if (!src || pages.length === 0) return;
    const { source: converted } = await readPages(src, {
      firstPageNumber: pages[0]!.page_number,
      maxPages: pages.length,
      ocr: opts.ocr,
      languages: opts.project.ocr.languages,
      // Only the pages the run read by OCR: the others' words came from their text layer.
      wants: (p) => pages.find((r) => r.page_number === p.page_number)?.text_source === "ocr",
    });
    try {
      for (const fresh of converted.pages) {
        const entry = pages.find((p) => p.page_number === fresh.page_number);
        if (!entry) continue;
        if (!entry.words?.length) entry.words = fresh.words;
        if (!fresh.render) continue;
        const img = await fresh.render();
        const raw = { width: img.width, height: img.height, channels: img.channels };
        tx.images.set(
          fresh.page_number,
          new Uint8Array(await sharp(img.data, { raw }).jpeg({ quality: 85 }).toBuffer()),
        );
      }
    } finally {
      await converted.close();
    }
  })().catch((err) =>
    opts.log(
      `review: ${tx.file}: the original could not be read again (${(err as Error).message}); fields can still be typed`,
    ),
  );
  return tx.prepared;
}

function statusOf(tx: LocalTransaction): string {
  if (tx.state.finished_at) return "completed";
  const r = tx.state.results;
  return needsReviewCount(r.documents) > 0 || r.validation.overall_status !== "success"
    ? "awaiting_input"
    : "completed";
}

function metadataOf(tx: LocalTransaction): Record<string, unknown> {
  const n = needsReviewCount(tx.state.results.documents);
  return {
    step_name: "review",
    instructions: n ? `${n} field${n === 1 ? "" : "s"} to check` : "nothing flagged",
    timeout_hours: 0,
  };
}

export function folderReviewStore(
  transactions: Map<string, LocalTransaction>,
  opts: FolderReviewOptions,
): FolderReviewStore {
  const ready = async (id: string) => {
    const tx = transactions.get(id);
    if (!tx) throw new DocprocError("not_found", `Transaction ${id} is not in this folder`);
    await prepare(tx, opts);
    return tx;
  };
  const view = (tx: LocalTransaction) =>
    buildReviewView(tx.state, opts.project, { status: statusOf(tx), review_metadata: metadataOf(tx) });
  return {
    transactions,
    list() {
      const items = [...transactions.values()].map((tx) => ({
        transaction_id: tx.state.results.transaction_id,
        status: statusOf(tx),
        created_at: tx.state.results.transaction.created_at,
        source_file_names: tx.state.results.transaction.source_file_names,
        review_metadata: metadataOf(tx),
      }));
      return { items, total: items.length, limit: items.length, offset: 0 };
    },
    view: async (id) => view(await ready(id)),
    async apply(id, body, ifMatch) {
      const tx = await ready(id);
      await act(tx, body, ifMatch, opts);
      return view(tx);
    },
    async pageImage(id, pageNumber): Promise<PageImage> {
      const img = (await ready(id)).images.get(pageNumber);
      if (!img)
        throw new DocprocError("not_found", `Page ${pageNumber} has no image (the original file is not available)`);
      return { data: img, contentType: "image/jpeg" };
    },
  };
}

/** One action: applied, the results file and exports rewritten; `finish` announces the finished review. */
async function act(tx: LocalTransaction, body: unknown, ifMatch: string | null, opts: FolderReviewOptions) {
  const expected = expectedVersionOf(body, ifMatch);
  const { version: _v, ...rest } = (body ?? {}) as Record<string, unknown>;
  const action = parseReviewAction(rest);
  if (expected !== tx.state.version) {
    throw new DocprocError(
      "stale_version",
      `The review of ${tx.state.results.transaction_id} changed since version ${expected} (now ${tx.state.version}): reload it and apply your change again`,
      { details: { current_version: tx.state.version } },
    );
  }
  const reviewer = { id: process.env.USER || process.env.USERNAME || "local", kind: "local" as const };
  const next = applyReviewAction(tx.state, action, { project: opts.project, reviewer, now: new Date() });
  tx.state = next;
  const manifest = await rerunExports({
    results: next.results,
    sources: tx.sources,
    profiles: opts.project.export_profiles,
    sink: folderSink(path.dirname(tx.file)),
  });
  const failed = Object.values(manifest.profiles).filter((e) => e.error);
  if (failed.length)
    opts.log(`review: exports of ${tx.file}: ${failed.map((e) => `${e.profile_id}: ${e.error}`).join("; ")}`);
  if (action.action !== "finish") return;
  await announceReviewFinished(
    opts.onReviewFinished,
    {
      transaction_id: next.results.transaction_id,
      tenant_id: next.results.tenant_id,
      project_id: next.results.project_id,
      reviewer,
      finished_at: next.finished_at!,
      results: next.results,
      history: next.history,
    },
    (err) => opts.log(`review: a review-finished hook failed: ${(err as Error).message}`),
  );
}
