/**
 * Measuring a corpus with the product's own evaluator: the corpus is laid out as an eval folder (corpora.ts) and
 * `docproc eval <folder> --json` runs as a child process, as a user or CI would run it. The report becomes figures:
 * per-field accuracy (correct/total), class accuracy, split boundary F1 and the character error rate.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EvalReport } from "../../src/eval/score";
import { runCli } from "../support/process";
import type { Corpus } from "./corpora";

/** A figure; `lower` marks one where less is better (the character error rate): its floor is a ceiling. */
export interface Figure {
  value: number;
  correct?: number;
  total?: number;
  lower?: true;
}
export type Figures = Record<string, Figure>;

export interface Measured {
  id: string;
  figures: Figures;
  seconds: number;
  report: EvalReport;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function figuresOf(r: EvalReport): Figures {
  const out: Figures = {};
  for (const f of [...r.fields].sort((a, b) => (a.field < b.field ? -1 : 1)))
    out[f.field] = { value: round(f.accuracy), correct: f.correct, total: f.total };
  if (r.classes.total)
    out["class"] = { value: round(r.classes.accuracy), correct: r.classes.correct, total: r.classes.total };
  const s = r.split;
  if (s.tp + s.fn > 0) out["split_f1"] = { value: round(s.f1), correct: s.tp, total: s.tp + s.fp + s.fn };
  if (r.text?.cer !== null && r.text?.cer !== undefined) out["cer"] = { value: round(r.text.cer), lower: true };
  // A file that could not be processed at all is a figure too: every one should be read.
  out["files_read"] = {
    value: round((r.files - r.errors.length) / r.files),
    correct: r.files - r.errors.length,
    total: r.files,
  };
  return out;
}

/** Lays `corpus` out under `root` and runs `docproc eval` on it. */
export async function measure(
  corpus: Corpus,
  root = mkdtempSync(path.join(os.tmpdir(), "docproc-gate-")),
): Promise<Measured> {
  const dir = path.join(root, corpus.id.replace(/\//g, "__"));
  mkdirSync(dir, { recursive: true });
  const project = await corpus.build(dir);
  const args = ["eval", dir, "--json"];
  if (project) {
    const file = path.join(root, `${corpus.id.replace(/\//g, "__")}.project.json`);
    writeFileSync(file, JSON.stringify(project));
    args.push("--project", file);
  }
  const t0 = performance.now();
  const run = await runCli(args, { timeoutMs: 600_000 });
  const seconds = (performance.now() - t0) / 1000;
  if (run.code !== 0) throw new Error(`docproc ${args.join(" ")} exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
  const report = JSON.parse(run.stdout) as EvalReport;
  return { id: corpus.id, figures: figuresOf(report), seconds, report };
}
