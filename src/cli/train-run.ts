/**
 * The work behind `docproc train`: gather labelled examples (listed in the project, or DIR/<class_id>/ folders),
 * read each through the real conversion (+ OCR for scans), train the naive Bayes model, print a per-class table and
 * write the project file with `classifier_model` embedded.
 *
 * MUST reject an unknown class folder and fewer than two classes with examples as usage errors (invalid_input → 2)
 * before anything is written; MUST name the example that could not be read (exit 1); MUST NOT touch the project
 * file unless training succeeded, and MUST keep a backup (FILE.bak) when it overwrites it.
 */
import { copyFile, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { cpuCount } from "../core/cores";
import path from "node:path";
import YAML from "yaml";
import {
  collectExamples,
  trainFromExamples,
  trainingReport,
  type ClassTrainingReport,
} from "../core/stages/classify/train";
import type { ClassifierModel } from "../core/classify/naive-bayes";
import { createOcrEngine, lazyOcrEngine, type OcrEngine } from "../core/engines/ocr";
import { DocprocError } from "../core/errors";
import { loadProjectFile, type ProjectSettings } from "../core/project";
import { readPages } from "../core/stages/ocr/read-pages";
import { DOCUMENT_EXTENSIONS } from "../batch/inputs";
import { renderTable } from "./table";
import { pushAll } from "../core/arrays";

export interface TrainOptions {
  project: string;
  examples?: string;
  out?: string;
  ocrEngine?: "auto" | "wasm" | "native";
}

/** Pages read per example: a class shows on its first pages, and long examples would only cost OCR time. */
const MAX_EXAMPLE_PAGES = 10;

export async function runTrain(opts: TrainOptions): Promise<number> {
  const project = await loadProjectFile(opts.project);
  const projectDir = path.dirname(path.resolve(opts.project));
  const target = opts.out ?? opts.project;
  // Checked before any example is read: a typo in --out must not cost a round of OCR.
  if (!(await stat(path.dirname(path.resolve(target))).catch(() => null))?.isDirectory()) {
    throw new DocprocError("invalid_input", `--out ${target}: folder ${path.dirname(target)} does not exist`);
  }
  const folder = opts.examples
    ? await examplesFromFolder(opts.examples, project)
    : { byClass: new Map<string, string[]>(), skipped: [] };
  const withFolder: ProjectSettings = {
    ...project,
    classes: project.classes.map((c) => ({
      ...c,
      example_documents: [...c.example_documents, ...(folder.byClass.get(c.id) ?? []).map((p) => ({ path: p }))],
    })),
  };
  const ocr = lazyOcrEngine(() =>
    createOcrEngine({ engine: opts.ocrEngine ?? project.ocr.engine, workers: cpuCount() }),
  );
  try {
    const examples = await collectExamples(withFolder, (p) =>
      readExampleFile(path.resolve(projectDir, p), ocr, project.ocr.languages),
    );
    const model = trainFromExamples(examples);
    const report = trainingReport(project, examples, model);
    const backup =
      opts.out === undefined || path.resolve(opts.out) === path.resolve(opts.project) ? `${opts.project}.bak` : null;
    if (backup) await copyFile(opts.project, backup);
    await writeTrainedProject(opts.project, target, model);
    const untrained = project.classes.filter((c) => !report.some((r) => r.class_id === c.id)).map((c) => c.id);
    process.stdout.write(
      renderReport(report, model, folder.skipped, untrained) +
        `wrote ${target}${backup ? ` (previous version: ${backup})` : ""}\n`,
    );
    return 0;
  } finally {
    await ocr.close();
  }
}

/**
 * Example files of DIR/<class_id>/ (recursively, sorted, hidden names skipped). A folder that names no class of the
 * project is a usage error listing the known ids; files that are not documents are reported as skipped.
 */
async function examplesFromFolder(
  dir: string,
  project: ProjectSettings,
): Promise<{ byClass: Map<string, string[]>; skipped: string[] }> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new DocprocError("invalid_input", `--examples ${dir} is not a folder`);
  const ids = new Set(project.classes.map((c) => c.id));
  const byClass = new Map<string, string[]>();
  const skipped: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith(".")) continue;
    const full = path.resolve(dir, entry.name);
    if (!entry.isDirectory()) {
      skipped.push(full);
      continue;
    }
    if (!ids.has(entry.name)) {
      throw new DocprocError(
        "invalid_input",
        `--examples: folder "${entry.name}" is not a class of the project (classes: ${[...ids].join(", ")})`,
      );
    }
    const files = (await readdir(full, { recursive: true, withFileTypes: true }))
      .filter(
        (f) =>
          f.isFile() &&
          !path
            .relative(full, path.join(f.parentPath, f.name))
            .split(path.sep)
            .some((part) => part.startsWith(".")),
      )
      .map((f) => path.join(f.parentPath, f.name))
      .sort();
    byClass.set(entry.name, files.filter(isExampleFile));
    pushAll(
      skipped,
      files.filter((f) => !isExampleFile(f)),
    );
  }
  return { byClass, skipped };
}

function isExampleFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  // E-mails expand into several documents; an example must be one.
  return ext === ".txt" || (DOCUMENT_EXTENSIONS.has(ext) && ext !== ".eml");
}

/**
 * The text of one example file: `.txt` as it is, anything else through conversion and OCR of pages without a text
 * layer. Pages are joined with form feeds. MUST throw a DocprocError (exit 1) for a missing, unreadable or textless file.
 */
export async function readExampleFile(file: string, ocr: OcrEngine, languages?: readonly string[]): Promise<string> {
  let data: Uint8Array;
  try {
    data = new Uint8Array(await readFile(file));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
    throw new DocprocError(
      "not_found",
      missing ? `no such file: ${file}` : `cannot read ${file}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (/\.txt$/i.test(file)) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(data);
    } catch {
      throw new DocprocError("unsupported_format", `${file} is not UTF-8 text`);
    }
  }
  const { source, warnings } = await readPages(
    { index: 0, filename: path.basename(file), data, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: MAX_EXAMPLE_PAGES, ocr: () => ocr, languages },
  );
  await source.close();
  const text = source.pages.map((p) => p.text).join("\f");
  if (!text.trim())
    throw new DocprocError(
      "ocr_failed",
      `no text could be read from ${file}${warnings.length ? ` (${warnings.join("; ")})` : ""}`,
    );
  return text;
}

/**
 * Writes the project with `classifier_model` set. JSON stays JSON; YAML is edited as a document so comments and
 * layout survive. Example paths are relative to the project file, so they are rebased when the target lives
 * elsewhere. The write goes through a temporary file and a rename: a crash never leaves half a project.
 */
async function writeTrainedProject(sourceFile: string, target: string, model: ClassifierModel): Promise<void> {
  const text = await readFile(sourceFile, "utf8");
  const sourceJson = /\.json$/i.test(sourceFile);
  const targetJson = /\.json$/i.test(target) || (!/\.ya?ml$/i.test(target) && sourceJson);
  const rebase = (p: string) =>
    path.isAbsolute(p)
      ? p
      : path
          .relative(path.dirname(path.resolve(target)), path.resolve(path.dirname(sourceFile), p))
          .split(path.sep)
          .join("/");
  let out: string;
  if (!sourceJson && !targetJson) {
    const doc = YAML.parseDocument(text);
    forEachExamplePath(doc.toJS(), (keyPath, p) => doc.setIn(keyPath, rebase(p)));
    doc.set("classifier_model", stableModel(model));
    // No padding inside [ ], so the user's own flow lists come back as they were written.
    out = doc.toString({ flowCollectionPadding: false });
  } else {
    const raw = sourceJson ? JSON.parse(text) : YAML.parse(text);
    forEachExamplePath(raw, (keyPath, p) => setIn(raw, keyPath, rebase(p)));
    raw.classifier_model = stableModel(model);
    out = targetJson ? JSON.stringify(raw, null, 2) + "\n" : YAML.stringify(raw);
  }
  const tmp = `${target}.tmp-${process.pid}`;
  await writeFile(tmp, out);
  await rename(tmp, target);
}

function forEachExamplePath(raw: any, fn: (keyPath: (string | number)[], p: string) => void): void {
  (Array.isArray(raw?.classes) ? raw.classes : []).forEach((cls: any, i: number) =>
    (Array.isArray(cls?.example_documents) ? cls.example_documents : []).forEach((ex: any, j: number) => {
      if (typeof ex?.path === "string") fn(["classes", i, "example_documents", j, "path"], ex.path);
    }),
  );
}

function setIn(obj: any, keyPath: (string | number)[], value: unknown): void {
  const last = keyPath[keyPath.length - 1]!;
  keyPath.slice(0, -1).reduce((o, k) => o[k], obj)[last] = value;
}

/** Word counts sorted by word, so retraining on the same examples rewrites the file byte for byte. */
function stableModel(model: ClassifierModel): ClassifierModel {
  return {
    ...model,
    classes: model.classes.map((c) => ({
      ...c,
      counts: Object.fromEntries(Object.entries(c.counts).sort(([a], [b]) => (a < b ? -1 : 1))),
    })),
  };
}

function renderReport(
  report: ClassTrainingReport[],
  model: ClassifierModel,
  skipped: string[],
  untrained: string[],
): string {
  const pct = (n: number, d: number) => `${n}/${d} (${Math.round((100 * n) / d)}%)`;
  const rows = report.map((r) => [
    r.class_id,
    String(r.examples),
    String(r.tokens),
    r.loo_correct === null ? "–" : pct(r.loo_correct, r.examples),
  ]);
  const total = report.reduce((s, r) => s + r.examples, 0);
  const correct = report.every((r) => r.loo_correct !== null) ? report.reduce((s, r) => s + r.loo_correct!, 0) : null;
  let out = `Trained a naive Bayes classifier from ${total} examples of ${report.length} classes (vocabulary ${model.vocabulary_size} words)\n\n`;
  out += renderTable(["class", "examples", "tokens", "leave-one-out"], rows, ["left", "right", "right", "right"]);
  out +=
    correct === null
      ? "leave-one-out skipped (too many examples)\n"
      : `overall leave-one-out accuracy ${pct(correct, total)}\n`;
  if (untrained.length) out += `classes without examples (decided by cue rules only): ${untrained.join(", ")}\n`;
  if (skipped.length)
    out += `skipped ${skipped.length} file(s) that are not example documents: ${skipped.join(", ")}\n`;
  return out;
}
