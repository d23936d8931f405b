/**
 * `docproc review <results folder>`: the review page of `docproc serve` on 127.0.0.1 (a random port unless --port),
 * over the results files `docproc process` wrote (docs/review.md).
 *
 * - MUST listen on the loopback address only: there is no sign-in (the person at the workstation owns the files).
 * - Page images and words come from the original file (`transaction.metadata.source_path`, recorded by `process`):
 *   a text layer is read again, scanned pages are OCR'd again on first view. Without the original the page shows
 *   its field boxes on a blank page and values can still be typed.
 * - Every correction rewrites the results file (with `last_human_review`) and re-runs the export profiles into the
 *   folder; a finished review calls the review-finished hooks (`onReviewFinished`).
 * - A write names the version it is based on; a stale one answers 409, as on the server.
 */
import path from "node:path";
import sharp from "sharp";
import { DocprocError, httpStatusOf } from "../core/errors";
import { folderSink } from "../core/exporters";
import type { OcrEngine } from "../core/engines/ocr";
import type { ResultsFile, SourceInput } from "../core/model";
import { defaultProject, loadProjectFile, type ProjectSettings } from "../core/project";
import { applyReviewAction, parseReviewAction, type ReviewEntry, type ReviewState } from "../core/review/actions";
import { announceReviewFinished, type ReviewFinishedHook } from "../core/review/hooks";
import { learnIntoProjectFile } from "./memory-run";
import { buildReviewView, needsReviewCount } from "../core/review/view";
import { convertSource } from "../core/stages/convert";
import { loadResultsFile, rerunExports } from "../core/stages/export";
import { ocrPages } from "../core/stages/ocr";
import { reviewPageResponse } from "../server/review-page/index";

export interface ReviewOptions {
  folder: string;
  project?: string;
  port?: number;
  /** Open the default browser (when there is one). */
  open: boolean;
  /** Called on first need (only scanned pages need OCR). */
  ocr: () => Promise<OcrEngine>;
  onReviewFinished?: ReviewFinishedHook[];
  log?: (line: string) => void;
}

interface LocalTransaction {
  file: string;
  state: ReviewState;
  sources: SourceInput[];
  images: Map<number, Uint8Array>;
  prepared: Promise<void> | null;
}

/** Starts the local review server; resolves with its URL and a stop function. */
export async function startLocalReview(
  opts: ReviewOptions,
): Promise<{ url: string; stop: () => Promise<void>; transactions: Map<string, LocalTransaction> }> {
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  const transactions = await loadFolder(opts.folder);
  if (transactions.size === 0)
    throw new DocprocError("invalid_input", `${opts.folder}: no <transaction_id>_data.json results files to review`);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    fetch: async (req) => {
      try {
        return await route(req, transactions, project, opts);
      } catch (err) {
        const status = httpStatusOf(err);
        if (status >= 500) (opts.log ?? console.error)(`review: ${(err as Error).stack ?? err}`);
        return Response.json({ detail: (err as Error).message }, { status });
      }
    },
  });
  return { url: `http://127.0.0.1:${server.port}/review`, stop: async () => void server.stop(true), transactions };
}

async function loadFolder(folder: string): Promise<Map<string, LocalTransaction>> {
  const out = new Map<string, LocalTransaction>();
  const glob = new Bun.Glob("*_data.json");
  for await (const name of glob.scan({ cwd: folder })) {
    const { results, file } = await loadResultsFile(path.join(folder, name));
    if (!results.pages) continue; // a JSON profile without pages is not a full results file
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
function prepare(tx: LocalTransaction, opts: ReviewOptions): Promise<void> {
  tx.prepared ??= (async () => {
    const src = tx.sources[0];
    const pages = tx.state.results.pages ?? [];
    if (!src || pages.length === 0) return;
    const converted = await convertSource(src, { firstPageNumber: pages[0]!.page_number, maxPages: pages.length });
    try {
      const needOcr = converted.pages.filter(
        (p) => pages.find((r) => r.page_number === p.page_number)?.text_source === "ocr",
      );
      if (needOcr.length) await ocrPages(needOcr, await opts.ocr());
      for (const fresh of converted.pages) {
        const entry = pages.find((p) => p.page_number === fresh.page_number);
        if (!entry) continue;
        if (!entry.words?.length) entry.words = fresh.words;
        if (fresh.render) {
          const img = await fresh.render();
          tx.images.set(
            fresh.page_number,
            new Uint8Array(
              await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
                .jpeg({ quality: 85 })
                .toBuffer(),
            ),
          );
        }
      }
    } finally {
      await converted.close();
    }
  })().catch((err) =>
    (opts.log ?? console.error)(
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

async function route(
  req: Request,
  txs: Map<string, LocalTransaction>,
  project: ProjectSettings,
  opts: ReviewOptions,
): Promise<Response> {
  const url = new URL(req.url);
  const p = url.pathname;
  if (req.method === "GET" && /^\/review(\/[^/]+)?\/?$/.test(p)) return reviewPageResponse();
  if (req.method === "GET" && p === "/transactions") {
    const items = [...txs.values()].map((tx) => ({
      transaction_id: tx.state.results.transaction_id,
      status: statusOf(tx),
      created_at: tx.state.results.transaction.created_at,
      source_file_names: tx.state.results.transaction.source_file_names,
      review_metadata: metadataOf(tx),
    }));
    return Response.json({ items, total: items.length, limit: items.length, offset: 0 });
  }
  const m = /^\/transactions\/([^/]+)\/review(?:\/pages\/(\d+)\/image)?\/?$/.exec(p);
  const tx = m ? txs.get(decodeURIComponent(m[1]!)) : undefined;
  if (!m) return Response.json({ detail: `Not found: no route for ${req.method} ${p}` }, { status: 404 });
  if (!tx) throw new DocprocError("not_found", `Transaction ${m[1]} is not in this folder`);
  await prepare(tx, opts);
  if (m[2] && req.method === "GET") {
    const img = tx.images.get(Number(m[2]));
    if (!img) throw new DocprocError("not_found", `Page ${m[2]} has no image (the original file is not available)`);
    return new Response(img as unknown as BodyInit, {
      headers: { "content-type": "image/jpeg", "cache-control": "no-store" },
    });
  }
  if (req.method === "GET") return Response.json(view(tx, project));
  if (req.method !== "POST")
    return Response.json({ detail: `Method ${req.method} is not allowed on ${p}` }, { status: 405 });
  return Response.json(await act(tx, project, await req.json().catch(() => null), opts));
}

function view(tx: LocalTransaction, project: ProjectSettings) {
  return buildReviewView(tx.state, project, { status: statusOf(tx), review_metadata: metadataOf(tx) });
}

/** One action: applied, the results file and exports rewritten; `finish` announces the finished review. */
async function act(tx: LocalTransaction, project: ProjectSettings, body: unknown, opts: ReviewOptions) {
  const { version, ...rest } = (body ?? {}) as Record<string, unknown>;
  if (typeof version !== "number")
    throw new DocprocError("invalid_input", "version: the review version the change is based on is required");
  const action = parseReviewAction(rest);
  if (version !== tx.state.version) {
    throw new DocprocError(
      "stale_version",
      `The review of ${tx.state.results.transaction_id} changed since version ${version} (now ${tx.state.version}): reload it and apply your change again`,
    );
  }
  const reviewer = { id: process.env.USER || process.env.USERNAME || "local", kind: "local" as const };
  const next = applyReviewAction(tx.state, action, { project, reviewer, now: new Date() });
  tx.state = next;
  const manifest = await rerunExports({
    results: next.results,
    sources: tx.sources,
    profiles: project.export_profiles,
    sink: folderSink(path.dirname(tx.file)),
  });
  const failed = Object.values(manifest.profiles).filter((e) => e.error);
  if (failed.length)
    (opts.log ?? console.error)(
      `review: exports of ${tx.file}: ${failed.map((e) => `${e.profile_id}: ${e.error}`).join("; ")}`,
    );
  if (action.action === "finish") {
    // With --project FILE, confirmed fields teach that project file (docs/memory.md); the default project has no file.
    await announceReviewFinished(
      opts.onReviewFinished ?? (opts.project ? [learnIntoProjectFile(opts.project)] : []),
      {
        transaction_id: next.results.transaction_id,
        tenant_id: next.results.tenant_id,
        project_id: next.results.project_id,
        reviewer,
        finished_at: next.finished_at!,
        results: next.results,
        history: next.history,
      },
      (err) => (opts.log ?? console.error)(`review: a review-finished hook failed: ${(err as Error).message}`),
    );
  }
  return view(tx, project);
}

/** Opens `url` in the default browser when the machine has one; never fails the command. */
export function openBrowser(url: string): boolean {
  const cmd =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  if (!Bun.which(cmd[0]!)) return false;
  try {
    Bun.spawn(cmd, { stdio: ["ignore", "ignore", "ignore"] }).unref();
    return true;
  } catch {
    return false;
  }
}

/** The command: serve until interrupted. Returns the exit code. */
export async function runReviewCommand(opts: Omit<ReviewOptions, "ocr">): Promise<number> {
  const { createOcrEngine } = await import("../core/engines/ocr");
  const engine: { current: Promise<OcrEngine> | null } = { current: null };
  const local = await startLocalReview({
    ...opts,
    ocr: () => (engine.current ??= createOcrEngine({ engine: "auto", workers: 1 })),
  });
  process.stdout.write(
    `Review ${local.transactions.size} results file${local.transactions.size === 1 ? "" : "s"} at ${local.url}\n(Ctrl-C to stop; corrections rewrite the results files and their exports in ${path.resolve(opts.folder)})\n`,
  );
  if (opts.open && !openBrowser(local.url)) process.stdout.write("No browser to open here: open the address above.\n");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await local.stop();
  await (await engine.current?.catch(() => null))?.close();
  return 0;
}
