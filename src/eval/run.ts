/**
 * Runs the real pipeline over an evaluation folder and scores it. Each document file is one transaction (so split
 * boundaries are scored inside the file); no export file is written. One file failing is that file's error in the
 * report, never the end of the run.
 */
import path from "node:path";
import type { OcrEngine } from "../core/engines/ocr";
import { wrapStageError } from "../core/errors";
import type { DocumentResult, Page } from "../core/model";
import { processTransaction, type PipelineContext } from "../core/pipeline";
import type { ProjectSettings } from "../core/project";
import { memorySink } from "../core/exporters";
import { readEvalFolder, type EvalItem } from "./folder";
import { scoreOutcomes, type EvalReport, type FileOutcome, type ProducedDocument } from "./score";

export interface EvalRunOptions {
  ocr: OcrEngine;
  /** Extra pipeline context (a project memory, a fixed clock). */
  context?: Partial<PipelineContext>;
  onFile?: (done: number, total: number, file: string) => void;
  /**
   * Files in flight at once (default 1). Each file is its own transaction, so the report MUST NOT depend on it:
   * outcomes keep the folder's order. A folder of one-page scans keeps only one OCR worker busy at a time
   * otherwise (every page of one file is already spread over the pool).
   */
  concurrency?: number;
}

export interface EvalRun {
  report: EvalReport;
  outcomes: FileOutcome[];
  skipped: string[];
  notDocuments: Array<{ file: string; reason: string }>;
}

export async function evaluateFolder(dir: string, project: ProjectSettings, opts: EvalRunOptions): Promise<EvalRun> {
  const { items, skipped, notDocuments } = await readEvalFolder(dir);
  const outcomes: FileOutcome[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      opts.onFile?.(done, items.length, items[i]!.file);
      outcomes[i] = await evaluateItem(items[i]!, dir, project, opts);
      done++;
    }
  };
  const lanes = Math.max(1, Math.min(opts.concurrency ?? 1, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  opts.onFile?.(items.length, items.length, "");
  return { report: scoreOutcomes(outcomes, project.review_thresholds.field), outcomes, skipped, notDocuments };
}

export function producedOf(doc: DocumentResult, project: ProjectSettings, pages: Page[] = []): ProducedDocument {
  const types = new Map((project.fields[doc.classification.class_id] ?? []).map((f) => [f.id, f.type]));
  const text = pages.length
    ? doc.split.page_numbers.map((n) => pages.find((p) => p.page_number === n)?.text ?? "").join("\n")
    : undefined;
  return {
    class_id: doc.classification.class_id,
    page_numbers: doc.split.page_numbers,
    fields: Object.fromEntries(
      Object.entries(doc.fields).map(([id, f]) => [
        id,
        { value: f.value, confidence: f.confidence, type: types.get(id) },
      ]),
    ),
    text,
  };
}

async function evaluateItem(
  item: EvalItem,
  dir: string,
  project: ProjectSettings,
  opts: EvalRunOptions,
): Promise<FileOutcome> {
  const file = path.relative(dir, item.file) || path.basename(item.file);
  if (!item.expected) return { file, expected: [], produced: [], error: item.error };
  try {
    const data = new Uint8Array(await Bun.file(item.file).arrayBuffer());
    const result = await processTransaction(
      {
        sources: [
          {
            index: 0,
            filename: path.basename(item.file),
            data,
            split_policy: "inherit",
            content_type: /\.txt$/i.test(item.file) ? "text/plain" : undefined,
          },
        ],
      },
      {
        meta: {
          transaction_id: crypto.randomUUID(),
          tenant_id: "local",
          project_id: "eval",
          project_version: 1,
          correlation_id: null,
          metadata: {},
          created_at: new Date().toISOString(),
          source: "eval",
        },
        project,
        ocr: opts.ocr,
        sink: memorySink(),
        profiles: [],
        ...opts.context,
      },
    );
    return {
      file,
      expected: item.expected,
      produced: result.results.documents.map((d) => producedOf(d, project, result.pages)),
    };
  } catch (err) {
    const e = wrapStageError("eval", err);
    return { file, expected: item.expected, produced: [], error: `${e.code}: ${e.message}` };
  }
}
