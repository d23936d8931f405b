/**
 * `docproc review <results folder>`: the review page and API of `docproc serve` (the same route module,
 * server/routes/review.ts) on 127.0.0.1 (a random port unless --port), over the results files `docproc process`
 * wrote (the folder store, cli/review-folder.ts; docs/review.md).
 *
 * - MUST listen on the loopback address only: there is no sign-in (the person at the workstation owns the files).
 * - Errors answer `{ "detail": … }` with the server's status mapping (server/errors.ts).
 */
import path from "node:path";
import { Elysia } from "elysia";
import { DocprocError } from "../core/errors";
import type { OcrEngine } from "../core/engines/ocr";
import { defaultProject, loadProjectFile } from "../core/project";
import type { ReviewFinishedHook } from "../core/stages/review/hooks";
import { errorResponse, fromFrameworkError, jsonResponse } from "../server/errors";
import { reviewRoutes } from "../server/routes/review";
import { folderReviewStore, loadFolder, type LocalTransaction } from "./review-folder";
import { learnIntoProjectFile } from "./memory-run";

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

/** Starts the local review server; resolves with its URL and a stop function. */
export async function startLocalReview(
  opts: ReviewOptions,
): Promise<{ url: string; stop: () => Promise<void>; transactions: Map<string, LocalTransaction> }> {
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  const transactions = await loadFolder(opts.folder);
  if (transactions.size === 0)
    throw new DocprocError("invalid_input", `${opts.folder}: no <transaction_id>_data.json results files to review`);
  const log = opts.log ?? ((line: string) => console.error(line));
  const store = folderReviewStore(transactions, {
    project,
    ocr: opts.ocr,
    // With --project FILE, confirmed fields teach that project file (docs/memory.md); the default project has no file.
    onReviewFinished: opts.onReviewFinished ?? (opts.project ? [learnIntoProjectFile(opts.project)] : []),
    log,
  });
  const app = new Elysia()
    .onError(({ code, error, request }) => {
      if (code === "NOT_FOUND")
        return jsonResponse(
          { detail: `Not found: no route for ${request.method} ${new URL(request.url).pathname}` },
          404,
        );
      const mapped = fromFrameworkError(code, error);
      if (!(mapped instanceof DocprocError)) log(`review: ${(error as Error).stack ?? error}`);
      return errorResponse(mapped);
    })
    // The review page's list of transactions: every results file of the folder (the server lists its database).
    .get("/transactions", () => store.list())
    .use(reviewRoutes(store));
  const server = Bun.serve({ hostname: "127.0.0.1", port: opts.port ?? 0, fetch: (req) => app.handle(req) });
  return { url: `http://127.0.0.1:${server.port}/review`, stop: async () => void server.stop(true), transactions };
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
