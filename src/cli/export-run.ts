/**
 * The work behind `docproc export`: re-runs export profiles over results files already written by `process`.
 *
 * MUST read full results files (the default JSON profile's `<transaction_id>_data.json`, pages included) and refuse
 * anything else with `invalid_input`; MUST NOT need the original files for json, csv, xlsx and xml. PDF and JPG
 * profiles need the original pages: they are re-read from `transaction.metadata.source_path` (recorded by
 * `docproc process`) when that file is still there; otherwise those profiles fail with a reason, and the others
 * still run.
 */
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../core/errors";
import { folderSink, profilesForFormats, type ExportManifest } from "../core/exporters";
import { usesSourceStem, withBaseName } from "../core/exporters/names";
import { OutputNames } from "../batch/output-names";
import type { ResultsFile, SourceInput } from "../core/model";
import { defaultProject, loadProjectFile } from "../core/project";
import { loadResultsFile, rerunExports } from "../core/stages/export";
import { renderTable } from "./table";

export interface ExportOptions {
  paths: string[];
  out: string;
  project?: string;
  format?: string;
  json: boolean;
}

interface ExportOutcome {
  results_file: string;
  transaction_id: string;
  status: "success" | "failure";
  exports: string[];
  errors: string[];
}

export async function runExportCommand(opts: ExportOptions): Promise<number> {
  const files = await collectResultsFiles(opts.paths);
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  const profiles = opts.format !== undefined ? profilesForFormats([opts.format]) : project.export_profiles;
  await mkdir(opts.out, { recursive: true });
  const sink = folderSink(opts.out);
  // `{source_stem}` names (the PDF and JPG defaults) of two transactions with one stem must not collide in the
  // shared folder: each transaction claims a base name (src/batch/output-names.ts), its own on a re-export.
  const names = usesSourceStem(profiles) ? new OutputNames(opts.out) : null;
  const outcomes: ExportOutcome[] = [];
  for (const file of files) {
    const { results } = await loadResultsFile(file);
    const base =
      names?.claim(results.transaction.source_file_names[0] ?? "document", `transaction ${results.transaction_id}`) ??
      null;
    const named = base === null ? profiles : withBaseName(profiles, base, "template");
    const manifest = await rerunExports({ results, sources: await originalSources(results), profiles: named, sink });
    outcomes.push(outcomeOf(file, results, manifest, opts.out));
  }
  const failed = outcomes.filter((o) => o.status === "failure").length;
  if (opts.json) {
    process.stdout.write(
      JSON.stringify({ out_dir: path.resolve(opts.out), total: outcomes.length, failed, files: outcomes }, null, 2) +
        "\n",
    );
  } else {
    const rows = outcomes.map((o) => [path.basename(o.results_file), String(o.exports.length), o.status]);
    process.stdout.write(renderTable(["results file", "files", "status"], rows, ["left", "right", "left"]));
    for (const o of outcomes) for (const e of o.errors) process.stdout.write(`  ${o.results_file}: ${e}\n`);
    process.stdout.write(`\nexports written to ${path.resolve(opts.out)}\n`);
  }
  return failed === 0 ? 0 : 1;
}

async function collectResultsFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (!info) throw new DocprocError("invalid_input", `no such file or folder: ${p}`);
    if (!info.isDirectory()) files.push(p);
    else for (const name of (await readdir(p)).sort()) if (name.endsWith("_data.json")) files.push(path.join(p, name));
  }
  if (files.length === 0)
    throw new DocprocError("invalid_input", `no <transaction_id>_data.json results files in ${paths.join(", ")}`);
  return files;
}

/** The original file of a CLI transaction, when `process` recorded its path and it is still readable. */
async function originalSources(results: ResultsFile): Promise<SourceInput[]> {
  const sourcePath = results.transaction.metadata?.source_path;
  const filename = results.transaction.source_file_names[0];
  if (typeof sourcePath !== "string" || !filename || results.transaction.source_file_names.length !== 1) return [];
  const file = Bun.file(sourcePath);
  // Only a regular file: the path comes from a results file, which could name /dev/zero or a FIFO.
  if (
    !(await file.stat().then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return [];
  return [{ index: 0, filename, data: await file.bytes(), split_policy: "inherit" }];
}

function outcomeOf(file: string, results: ResultsFile, manifest: ExportManifest, outDir: string): ExportOutcome {
  const entries = Object.values(manifest.profiles);
  const errors = entries.filter((e) => e.error).map((e) => `profile ${e.profile_id}: ${e.error}`);
  return {
    results_file: file,
    transaction_id: results.transaction_id,
    status: errors.length === 0 ? "success" : "failure",
    exports: entries.flatMap((e) => e.files.map((f) => path.join(outDir, f.filename))),
    errors,
  };
}
