/**
 * The work behind `docproc watch`: validate folders, load the project, start the hot folder, log events, and stop
 * cleanly on SIGTERM/SIGINT (exit 0). Usage and configuration problems throw DocprocError before anything starts.
 */
import { mkdir, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { DocprocError } from "../core/errors";
import { defaultProject, loadProjectFile } from "../core/project";
import { startWatch, type WatchEvent } from "./watcher";

export interface WatchCommandOptions {
  dirs: string[];
  project?: string;
  out: string;
  data: string;
  poll: boolean;
  stableMs: number;
  processed?: string;
  failed?: string;
  keep: boolean;
  retryFailed?: boolean;
  concurrency?: number;
  json: boolean;
  ocrEngine?: "auto" | "wasm" | "native";
}

export async function runWatchCommand(opts: WatchCommandOptions): Promise<number> {
  for (const dir of opts.dirs) {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) throw new DocprocError("invalid_input", `not a folder: ${dir}`);
  }
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  await mkdir(opts.out, { recursive: true });
  const log = opts.json ? (e: WatchEvent) => process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...e }) + "\n") : logLine;
  const handle = startWatch(
    {
      dirs: opts.dirs,
      outDir: opts.out,
      dataDir: opts.data,
      project,
      poll: opts.poll,
      stableMs: opts.stableMs,
      processedDir: opts.processed,
      failedDir: opts.failed,
      keep: opts.keep,
      retryFailed: opts.retryFailed,
      concurrency: opts.concurrency ?? availableParallelism(),
      ocrEngine: opts.ocrEngine,
    },
    log,
  );
  const signal = new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  // A hot folder runs for days: two pdf.js workers kept ready (as serve does) split long PDFs between them.
  const pdf = import("../core/convert/pdf-client");
  void pdf.then((m) => m.prewarmPdfWorkers(2)).catch(() => undefined);
  await handle.ready;
  const sig = await signal;
  if (!opts.json) process.stderr.write(`docproc watch: ${sig}: finishing the files in hand\n`);
  await handle.stop();
  (await pdf.catch(() => null))?.closeIdlePdfWorkers();
  return 0;
}

function logLine(e: WatchEvent): void {
  const rel = (f: string) => path.relative(process.cwd(), f) || f;
  const at = new Date().toISOString().slice(11, 19);
  let line: string;
  switch (e.event) {
    case "watching":
      line = `watching ${e.dirs.map(rel).join(", ")} (${e.polling ? "polling" : "inotify"}; ${e.reason})`;
      break;
    case "taken":
      line = `taken    ${rel(e.file)}${e.retaken ? " (again: the previous run was interrupted)" : ""}`;
      break;
    case "done":
      line = `done     ${rel(e.file)} → ${e.results_file ? rel(e.results_file) : e.transaction_id} (${e.documents} document${e.documents === 1 ? "" : "s"}, ${e.seconds.toFixed(1)} s)`;
      break;
    case "failed":
      line = `failed   ${rel(e.file)}: ${(e.error ?? "").split("\n")[0]}${e.moved_to ? ` → ${rel(e.moved_to)}` : ""}`;
      break;
    case "skipped":
      line = `skipped  ${rel(e.file)}: ${e.reason === "duplicate" ? "same content as a file just processed" : `already ${e.status}`} (transaction ${e.transaction_id})`;
      break;
    case "changed":
      line = `changed  ${rel(e.file)}: written to while it was processed; it will be taken again once stable`;
      break;
    case "error":
      line = `error    ${e.file ? `${rel(e.file)}: ` : ""}${e.message}`;
      break;
    case "stopped":
      line = "stopped";
      break;
  }
  process.stdout.write(`${at} ${line}\n`);
}
