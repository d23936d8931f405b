/**
 * The workflow, top to bottom: convert → OCR → split → classify → extract → validate → results → export.
 * Notification is the caller's job (a durable delivery job on the server, direct delivery in the CLI), because a
 * delivery must never run inline in the workflow.
 *
 * MUST process every source it can: one unreadable file makes the result `partial`, never stops the others.
 * MUST close every converted file (PDF documents hold memory) whatever happens.
 */
import { DocprocError, wrapStageError } from "./errors";
import type {
  ConvertedFile,
  DocumentResult,
  Page,
  ProgressFn,
  RasterImage,
  ResultsFile,
  SourceInput,
  TransactionInput,
} from "./model";
import { buildResultsFile, type TransactionMeta } from "./results";
import type { ProjectSettings } from "./project";
import type { OcrEngine } from "./engines/ocr";
import type { ExportManifest, ExportSink } from "./exporters";
import { runExports } from "./exporters";
import { convertOcrData, convertSource, convertText } from "./stages/convert";
import { ocrPages } from "./stages/ocr";
import { analysePage, separatorNeedsOf, splitInfoOf, splitPages, type SplitFile } from "./stages/split";
import { expandEmailSource } from "./split/email";
import { classifyDocument } from "./stages/classify";
import { extractFields } from "./stages/extract";
import { applyMemory } from "./memory/recall";
import { validateDocument, validateTransaction } from "./stages/validate";
import { exportProfilesOf, splitSettingsOf } from "./workflow";

export type { TransactionMeta } from "./results";

export interface PipelineContext {
  meta: TransactionMeta;
  project: ProjectSettings;
  ocr: OcrEngine;
  sink: ExportSink;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  password?: string;
  /** Overrides the project's export profiles (the CLI's `--format`). */
  profiles?: ReturnType<typeof exportProfilesOf>;
  now?: () => Date;
}

export interface StageError {
  source_file_index?: number;
  stage: string;
  code: string;
  message: string;
}

export interface PipelineResult {
  status: "success" | "partial" | "failure";
  results: ResultsFile;
  manifest: ExportManifest;
  files: ConvertedFile[];
  pages: Page[];
  warnings: string[];
  errors: StageError[];
}

type OpenFile = ConvertedFile & { close?: () => Promise<void> };

export async function processTransaction(input: TransactionInput, ctx: PipelineContext): Promise<PipelineResult> {
  const progress = ctx.onProgress ?? (() => {});
  const errors: StageError[] = [];
  const warnings: string[] = [];
  const sources = input.sources.flatMap((src) => expandEmailSource(src));
  sources.forEach((src, i) => (src.index = i));
  const files: OpenFile[] = [];
  try {
    await convertAll(sources, input, ctx, files, errors);
    for (const f of files) warnings.push(...f.warnings.map((w) => `${f.filename}: ${w}`));
    const pages = files.flatMap((f) => f.pages);
    if (pages.length === 0 && errors.length > 0) {
      const first = errors[0]!;
      throw new DocprocError(first.code as never, first.message, { stage: first.stage });
    }
    const ocrTargets = pages.filter((p) => p.text_source === "none" && p.render);
    const splitFiles = splitFilesOf(files, sources);
    const onRead = analyseAfterReading(splitFiles, ctx.project);
    progress("ocr", 0, ocrTargets.length);
    try {
      const report = await ocrPages(ocrTargets, ctx.ocr, { signal: ctx.signal, onPage: (d, t) => progress("ocr", d, t), onRead });
      warnings.push(...report.warnings);
    } catch (err) {
      throw wrapStageError("ocr", err);
    }

    const documents = await understand(files, splitFiles, ctx, progress);
    const txRules = validateTransaction(documents, ctx.project);
    const results = buildResultsFile(ctx.meta, sources.map((s) => s.filename), documents, pages, txRules, ctx.now?.());

    progress("export", 0, 1);
    const profiles = ctx.profiles ?? exportProfilesOf(ctx.project);
    const manifest = await runExports({ results, pages, sources, sink: ctx.sink, now: ctx.now }, profiles);
    progress("export", 1, 1);
    for (const [id, entry] of Object.entries(manifest.profiles)) {
      if (entry.error) errors.push({ stage: "export", code: "export_failed", message: `profile ${id}: ${entry.error}` });
    }
    const status = errors.length === 0 ? "success" : "partial";
    return { status, results, manifest, files, pages, warnings, errors };
  } finally {
    await Promise.allSettled(files.map((f) => f.close?.()));
  }
}

async function convertAll(
  sources: SourceInput[],
  input: TransactionInput,
  ctx: PipelineContext,
  files: OpenFile[],
  errors: StageError[],
): Promise<void> {
  const progress = ctx.onProgress ?? (() => {});
  let nextPage = 1;
  let budget = input.pageLimit ?? null;
  const total = sources.length + (input.documentText ? 1 : 0) + (input.ocrData ? 1 : 0);
  progress("convert", 0, total);
  for (const src of sources) {
    if (budget !== null && budget <= 0) break;
    try {
      const file = isPlainText(src)
        ? convertText(new TextDecoder().decode(src.data), nextPage, { sourceFileIndex: src.index, filename: src.filename })
        : await convertSource(src, {
        firstPageNumber: nextPage,
        maxPages: budget,
        password: src.password ?? ctx.password,
        signal: ctx.signal,
      });
      files.push(file);
      nextPage += file.pages.length;
      if (budget !== null) budget -= file.pages.length;
    } catch (err) {
      const e = wrapStageError("convert", err);
      errors.push({ source_file_index: src.index, stage: "convert", code: e.code, message: `${src.filename}: ${e.message}` });
    }
    progress("convert", files.length + errors.length, total);
  }
  // Supplied text and OCR data are pseudo-files after the uploaded ones, so page numbers stay in request order.
  if (input.documentText) {
    const file = convertText(input.documentText, nextPage, { sourceFileIndex: sources.length });
    files.push(file);
    nextPage += file.pages.length;
  }
  if (input.ocrData) {
    const file = convertOcrData(input.ocrData, nextPage, { sourceFileIndex: sources.length + (input.documentText ? 1 : 0) });
    files.push(file);
  }
  progress("convert", total, total);
}

function splitFilesOf(files: OpenFile[], sources: SourceInput[]): SplitFile[] {
  const policyOf = (index: number) => sources.find((s) => s.index === index)?.split_policy ?? "inherit";
  return files.map((f) => ({ index: f.source_file_index, filename: f.filename, policy: policyOf(f.source_file_index), pages: f.pages }));
}

/**
 * Scanned pages are rendered once: separator detection (barcodes, blank pages) runs on the grey raster the OCR stage
 * read, after the reading, so a page the text already rules out is never scanned for barcodes. A failure here
 * leaves the page to Split's own analysis.
 */
export function analyseAfterReading(splitFiles: SplitFile[], project: ProjectSettings): (page: Page, grey: RasterImage) => Promise<void> {
  const settings = splitSettingsOf(project);
  const needs = separatorNeedsOf(splitFiles, settings);
  return async (page, grey) => {
    const need = needs.get(page);
    if (need) await analysePage(page, settings.separator, need, grey);
  };
}

async function understand(
  files: OpenFile[],
  splitFiles: SplitFile[],
  ctx: PipelineContext,
  progress: ProgressFn,
): Promise<DocumentResult[]> {
  const settings = splitSettingsOf(ctx.project);
  progress("split", 0, 1);
  let spans;
  try {
    // The class-change boundary signal needs the classifier; cue rules are cheap enough to run per candidate.
    spans = await splitPages(splitFiles, settings, { classify: (pages) => classifyDocument(pages, ctx.project) });
  } catch (err) {
    throw wrapStageError("split", err);
  }
  progress("split", 1, 1);
  const byNumber = new Map(files.flatMap((f) => f.pages).map((p) => [p.page_number, p]));
  const fileOfPage = new Map(files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  const documents: DocumentResult[] = [];
  for (const [i, span] of spans.entries()) {
    progress("extract", i, spans.length);
    const pages = span.page_numbers.map((n) => byNumber.get(n)!).filter(Boolean);
    const docFiles = [...new Set(pages.map((p) => fileOfPage.get(p.page_number)!).filter(Boolean))];
    const attachments = docFiles.flatMap((f) => f.attachments ?? []);
    try {
      // Memory hook: a document of a remembered issuer is read at the remembered places first (src/core/memory).
      const extract = (classId: string) => extractFields(pages, classId, ctx.project, { attachments });
      const first = classifyDocument(pages, ctx.project);
      const { classification, fields } = applyMemory(pages, first, extract(first.class_id), ctx.project, extract);
      const doc: DocumentResult = {
        document_id: crypto.randomUUID(),
        document_index: i,
        document_type: classification.type,
        classification_confidence: classification.confidence,
        classification,
        split: splitInfoOf(span, settings, splitFiles, ctx.project.review_thresholds.split),
        fields,
      };
      const validation = validateDocument(doc, ctx.project);
      if (validation) doc.validation = validation;
      documents.push(doc);
    } catch (err) {
      throw wrapStageError("extract", err);
    }
  }
  progress("extract", spans.length, spans.length);
  return documents;
}

/** Plain-text sources (a `.txt` upload, the rendered body of an imported e-mail) are read as supplied text. */
function isPlainText(src: SourceInput): boolean {
  const declared = /^text\/plain\b/i.test(src.content_type ?? "") || /\.txt$/i.test(src.filename);
  if (!declared || src.data.length === 0) return false;
  const head = src.data.subarray(0, 4096);
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length < src.data.length ? head.subarray(0, head.length - 4) : head);
    return true;
  } catch {
    return false;
  }
}
