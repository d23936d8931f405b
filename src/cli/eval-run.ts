/**
 * The work behind `docproc eval`: load the project(s), run the folder through the pipeline, print the report.
 * Usage problems (no folder, a bad --min-accuracy, --compare without two files) are `invalid_input` (exit 2)
 * before any document is read.
 */
import { writeFile } from "node:fs/promises";
import { cpuCount } from "../core/cores";
import path from "node:path";
import { createOcrEngine, lazyOcrEngine } from "../core/engines/ocr";
import { DocprocError } from "../core/errors";
import { defaultProject, loadProjectFile, type ProjectSettings } from "../core/project";
import { evaluateFolder, type EvalRun } from "../eval/run";
import { renderHtml } from "../eval/report-html";
import { renderComparison, renderReport, renderSeriesComparison } from "../eval/report-text";
import type { EvalReport, FileOutcome } from "../eval/score";

export interface EvalOptions {
  folder: string;
  project?: string;
  json?: boolean;
  html?: string;
  compare?: string;
  minAccuracy?: string;
  ocrEngine?: "auto" | "wasm" | "native";
}

/** "0.95", "95%" or "95" → 0.95. */
export function parseMinAccuracy(raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(raw);
  const v = m ? Number(m[1]) / (m[2] || Number(m[1]) > 1 ? 100 : 1) : NaN;
  if (!(v >= 0 && v <= 1))
    throw new DocprocError("invalid_input", `--min-accuracy ${raw}: give a share 0..1 or a percentage (95%)`);
  return v;
}

export async function runEval(opts: EvalOptions): Promise<number> {
  const min = opts.minAccuracy === undefined ? null : parseMinAccuracy(opts.minAccuracy);
  const files = opts.compare
    ? opts.compare
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [opts.project];
  if (opts.compare && files.length !== 2)
    throw new DocprocError("invalid_input", "--compare takes two project files: --compare A,B");
  if (opts.compare && opts.project)
    throw new DocprocError("invalid_input", "--compare and --project exclude each other");
  const projects: Array<[string, ProjectSettings]> = [];
  for (const f of files) projects.push([f ?? "default project", f ? await loadProjectFile(f) : defaultProject]);
  const cores = cpuCount();
  const ocr = lazyOcrEngine(() => createOcrEngine({ engine: opts.ocrEngine ?? "auto", workers: cores }));
  const reports: EvalReport[] = [];
  const outcomes: FileOutcome[][] = [];
  let skipped: string[] = [];
  let notDocuments: EvalRun["notDocuments"] = [];
  try {
    for (const [, project] of projects) {
      const run = await evaluateFolder(opts.folder, project, { ocr, concurrency: cores });
      reports.push(run.report);
      outcomes.push(run.outcomes);
      skipped = run.skipped;
      notDocuments = run.notDocuments;
    }
  } finally {
    await ocr.close();
  }
  const names = projects.map(([n]) => n);
  if (opts.json) {
    const body = reports.length === 2 ? { projects: names, reports } : reports[0];
    process.stdout.write(JSON.stringify(body, null, 2) + "\n");
  } else {
    for (const [i, r] of reports.entries())
      process.stdout.write(renderReport(r, `${opts.folder} · ${names[i]}`) + "\n");
    if (reports.length === 2) {
      process.stdout.write(renderComparison(reports[0]!, reports[1]!, [names[0]!, names[1]!]));
      process.stdout.write(
        renderSeriesComparison(
          outcomes[0]!,
          outcomes[1]!,
          [names[0]!, names[1]!],
          projects[1]![1].review_thresholds.field,
        ),
      );
    }
    if (skipped.length)
      process.stdout.write(
        `skipped, no expected .json beside: ${skipped.map((f) => path.relative(opts.folder, f)).join(", ")}\n`,
      );
    for (const n of notDocuments) process.stdout.write(`skipped ${path.relative(opts.folder, n.file)}: ${n.reason}\n`);
  }
  if (opts.html) {
    await writeFile(
      opts.html,
      renderHtml(reports[reports.length - 1]!, `docproc evaluation · ${opts.folder} · ${names[names.length - 1]}`),
    );
    if (!opts.json) process.stdout.write(`wrote ${opts.html}\n`);
  }
  const failing =
    min === null ? [] : reports.map((r, i) => [r, names[i]] as const).filter(([r]) => r.overall.accuracy < min);
  for (const [r, name] of failing)
    process.stderr.write(
      `docproc: ${name}: accuracy ${(100 * r.overall.accuracy).toFixed(1)}% is below --min-accuracy ${(100 * min!).toFixed(1)}%\n`,
    );
  return failing.length ? 1 : 0;
}
