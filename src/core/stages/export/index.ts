/**
 * The export stage and re-exports of processed work (`docproc export <transaction | results folder>`).
 *
 * The run's Export stage (`exportStage`, stage.ts beside this file) calls `runExports`. `rerunExports` runs the
 * *current* profiles again over a results file: it MUST NOT change the results (classification, fields, boxes,
 * rotation stay as recorded), and it re-converts the source files only when a profile needs page images (PDF,
 * JPG). Page words for the PDF text layer come from `results.pages[].words`, i.e. from a JSON export made with
 * `include_page_ocr`.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../../errors";
import type { Page, ResultsFile, SourceInput } from "../../model";
import {
  runExports,
  type ExportManifest,
  type ExportProfile,
  type ExportProfileInput,
  type ExportSink,
} from "../../exporters";
import { convertSource, type ConvertedSource } from "../convert";
import { maxOf, minOf } from "../../arrays";
import { pagesFromResults } from "../../results";

export { runExports, profilesForFormats } from "../../exporters";

function needsImages(profiles: Array<ExportProfile | ExportProfileInput>): boolean {
  return profiles.some((p) => p.output_format === "pdf" || p.output_format === "jpg" || p.output_format === "facturx");
}

/** Attaches `render()` of freshly converted source pages to the rebuilt pages, matched by source file and page. */
async function attachRenders(pages: Page[], sources: SourceInput[], opened: ConvertedSource[]): Promise<void> {
  for (const src of sources) {
    const mine = pages.filter((p) => p.source_file_index === src.index);
    if (mine.length === 0) continue;
    const first = minOf(mine.map((p) => p.page_number));
    const last = maxOf(mine.map((p) => p.source_file_page_number));
    const converted = await convertSource(src, { firstPageNumber: first, maxPages: last });
    opened.push(converted);
    for (const page of mine) {
      const fresh = converted.pages.find((c) => c.source_file_page_number === page.source_file_page_number);
      if (fresh?.render) page.render = fresh.render;
    }
  }
}

export interface RerunOptions {
  results: ResultsFile;
  /** Original files, `index` matching `results.transaction.source_file_names`; may be empty (no PDF/JPG then). */
  sources: SourceInput[];
  profiles: Array<ExportProfile | ExportProfileInput>;
  sink: ExportSink;
  now?: () => Date;
  signal?: AbortSignal;
}

/** Runs the given profiles again over processed work. A source that no longer converts fails only PDF/JPG pages. */
export async function rerunExports(opts: RerunOptions): Promise<ExportManifest> {
  const pages = pagesFromResults(opts.results);
  const opened: ConvertedSource[] = [];
  try {
    if (needsImages(opts.profiles) && opts.sources.length > 0) await attachRenders(pages, opts.sources, opened);
    return await runExports(
      { results: opts.results, pages, sources: opts.sources, sink: opts.sink, now: opts.now, signal: opts.signal },
      opts.profiles,
    );
  } finally {
    await Promise.allSettled(opened.map((c) => c.close()));
  }
}

/**
 * Reads a results file (`<transaction_id>_data.json`), or the one results file inside a folder.
 * Throws `invalid_input` when there is none, several, or the JSON is not a results file.
 */
export async function loadResultsFile(fileOrFolder: string): Promise<{ results: ResultsFile; file: string }> {
  let file = fileOrFolder;
  if (!fileOrFolder.toLowerCase().endsWith(".json")) {
    const names = (await readdir(fileOrFolder).catch(() => [])).filter((n) => n.endsWith("_data.json"));
    if (names.length !== 1) {
      throw new DocprocError(
        "invalid_input",
        `${fileOrFolder}: expected exactly one *_data.json results file, found ${names.length}`,
      );
    }
    file = path.join(fileOrFolder, names[0]!);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new DocprocError("invalid_input", `${file}: not a readable JSON results file (${(err as Error).message})`);
  }
  const r = raw as Partial<ResultsFile>;
  if (
    typeof r?.transaction_id !== "string" ||
    !Array.isArray(r.documents) ||
    typeof r.transaction?.project_version !== "number"
  ) {
    throw new DocprocError(
      "invalid_input",
      `${file}: not a docproc results file (transaction_id, transaction, documents missing)`,
    );
  }
  return { results: r as ResultsFile, file };
}

/**
 * Human-readable lines for the CLI ("where did my files go"): one per profile, with the files under `folder`
 * (the folder the sink writes to), or the profile's error.
 */
export function describeExports(manifest: ExportManifest, folder: string): string[] {
  const lines: string[] = [];
  for (const entry of Object.values(manifest.profiles)) {
    if (entry.error) {
      lines.push(`${entry.profile_id} (${entry.output_format}): failed: ${entry.error}`);
      continue;
    }
    const count = entry.files.length;
    lines.push(`${entry.profile_id} (${entry.output_format}): ${count} file${count === 1 ? "" : "s"}`);
    for (const f of entry.files) lines.push(`  ${path.join(folder, f.filename)}`);
    for (const w of entry.warnings ?? []) lines.push(`  warning: ${w}`);
  }
  return lines;
}
