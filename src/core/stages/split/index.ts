/**
 * Split stage: turns the transaction's page stream into documents. The run's Stage that calls it (`splitStage`) is
 * in stage.ts beside this file; the signals, separators and boundary model are in core/split/.
 *
 * Contract (spec "Per-file split policies", rules 1-9):
 * - MUST honour each file's policy: `single_document` → exactly one document, no boundary analysis;
 *   `self_contained` → the intelligent splitter inside that file only, whatever the project mode; `inherit` → the
 *   project mode governs and pages MAY merge with neighbouring inherit files.
 * - MUST NOT merge pages across a single_document or self_contained file (they break the stream).
 * - MUST give confidence 1.0 to documents from single_document files and from one-page files.
 * - MUST make every file one document when the Split step is disabled, regardless of policy.
 * - `intelligent_llm_per_source` MUST behave as if every file were self_contained (no language model is
 *   configured offline, so the intelligent splitter runs per file).
 * - MUST be a pure function of (files, settings): re-running Split on the same pages gives the same spans.
 *   (Barcode and blank-page findings are cached on the pages, which changes nothing but the time taken.)
 */
import type { DocumentSpan, Page, SplitInfo, SplitPolicy } from "../../model";
import { splitBySeparators, splitFixedPages, splitPerFile, splitPerPage } from "../../split/deterministic";
import { type PageClassifier, splitIntelligently } from "../../split/intelligent";
import { type AnalysisNeeds, analysePages } from "../../split/page-analysis";
export { analysePage } from "../../split/page-analysis";
import { parseSplitPolicy } from "../../split/policy";
import type { SplitSettings } from "../../project/split";
import type { StreamPage } from "../../split/stream";
import { timeStage } from "../../timing";

export interface SplitFile {
  index: number;
  filename: string;
  policy: SplitPolicy;
  pages: Page[];
}

export interface SplitOptions {
  /** Classifies pages; a change of class between neighbouring pages is a boundary signal in intelligent mode. */
  classify?: PageClassifier;
  /** Aborts separator analysis between pages (job timeout, shutdown, deletion). */
  signal?: AbortSignal;
}

/** A run of files analysed together: one file with its own policy, or consecutive inherit files. */
interface Group {
  kind: "single_document" | "self_contained" | "stream";
  files: SplitFile[];
}

export function splitPages(
  files: SplitFile[],
  settings: SplitSettings,
  opts: SplitOptions = {},
): Promise<DocumentSpan[]> {
  return timeStage("split", () => split(files, settings, opts));
}

async function split(files: SplitFile[], settings: SplitSettings, opts: SplitOptions): Promise<DocumentSpan[]> {
  // Policies may come from stored, untrusted data: re-check them (rule 8) without mutating the caller's files.
  const withPages = files.filter((f) => f.pages.length > 0).map((f) => ({ ...f, policy: parseSplitPolicy(f.policy) }));
  if (!settings.enabled) return withPages.map((f) => wholeFile(f, "split step disabled: one document per source file"));

  const groups = groupFiles(withPages, settings);
  for (const g of groups)
    await analysePages(
      g.files.flatMap((f) => f.pages),
      settings.separator,
      needsOf(g, settings),
      opts.signal,
    );
  const spans = groups.flatMap((g) => splitGroup(g, settings, opts));
  return applyCertainty(spans, withPages);
}

/**
 * What separator analysis each page will need, known before OCR: the pipeline analyses scanned pages on the raster
 * the OCR stage renders anyway, so no page is rendered twice. Pages not in the map need nothing.
 */
export function separatorNeedsOf(files: SplitFile[], settings: SplitSettings): Map<Page, AnalysisNeeds> {
  const needs = new Map<Page, AnalysisNeeds>();
  if (!settings.enabled) return needs;
  const withPages = files.filter((f) => f.pages.length > 0).map((f) => ({ ...f, policy: parseSplitPolicy(f.policy) }));
  for (const g of groupFiles(withPages, settings)) {
    const n = needsOf(g, settings);
    if (n.barcodes || n.blank) for (const f of g.files) for (const p of f.pages) needs.set(p, n);
  }
  return needs;
}

/**
 * The `split` object of a document in the results file (docs/split.md). `reviewThreshold` is the project's
 * `review_thresholds.split`; documents at confidence 1.0 are never flagged, whatever the threshold.
 */
export function splitInfoOf(
  span: DocumentSpan,
  settings: SplitSettings,
  files: SplitFile[],
  reviewThreshold: number,
): SplitInfo {
  const fileOfPage = fileIndexByPage(files);
  const info: SplitInfo = {
    mode: settings.enabled ? settings.mode : "disabled",
    policy: span.policy,
    confidence: span.confidence,
    reason: span.reason,
    review_required: span.confidence < 1 && span.confidence < reviewThreshold,
    page_numbers: span.page_numbers,
    source_file_indexes: [...new Set(span.page_numbers.map((n) => fileOfPage.get(n)).filter((i) => i !== undefined))],
  };
  if (span.separator_pages) info.separator_pages = span.separator_pages;
  return info;
}

/** Page number → source file index, built once per file list (every document of a transaction asks). */
const fileIndexes = new WeakMap<SplitFile[], Map<number, number>>();
function fileIndexByPage(files: SplitFile[]): Map<number, number> {
  let map = fileIndexes.get(files);
  if (!map) {
    map = new Map<number, number>();
    for (const f of files) for (const p of f.pages) map.set(p.page_number, f.index);
    fileIndexes.set(files, map);
  }
  return map;
}

function groupFiles(files: SplitFile[], settings: SplitSettings): Group[] {
  const groups: Group[] = [];
  let stream: Group | null = null;
  for (const f of files) {
    const perSource = settings.mode === "intelligent_llm_per_source" && f.policy === "inherit";
    if (f.policy === "inherit" && !perSource) {
      if (!stream) groups.push((stream = { kind: "stream", files: [] }));
      stream.files.push(f);
      continue;
    }
    stream = null; // a file with its own policy breaks the stream (rule 2)
    groups.push({ kind: f.policy === "single_document" ? "single_document" : "self_contained", files: [f] });
  }
  return groups;
}

function needsOf(g: Group, settings: SplitSettings): AnalysisNeeds {
  const sep = settings.separator;
  const barcodes = sep.patch_t || sep.barcodes.length > 0;
  if (g.kind === "single_document") return { barcodes: false, blank: false };
  const intelligent = g.kind === "self_contained" || settings.mode === "intelligent";
  if (intelligent) {
    if (!settings.intelligent.use_separators) return { barcodes: false, blank: false };
    return { barcodes, blank: true, patchTOnly: sep.barcodes.length === 0 };
  }
  if (settings.mode === "separator") return { barcodes, blank: sep.blank_pages };
  return { barcodes: false, blank: false };
}

function splitGroup(g: Group, settings: SplitSettings, opts: SplitOptions): DocumentSpan[] {
  if (g.kind === "single_document")
    return [wholeFile(g.files[0], "split policy single_document: the file is one document")];
  const stream = toStream(g.files);
  if (g.kind === "self_contained") {
    const f = g.files[0];
    const spans = splitIntelligently(stream, settings, f.policy, opts.classify);
    const why =
      f.policy === "self_contained"
        ? "split policy self_contained: intelligent splitter inside the file"
        : "intelligent_llm_per_source without a language model: intelligent splitter inside the file";
    return spans.map((s) => ({ ...s, reason: `${why}; ${s.reason}` }));
  }
  switch (settings.mode) {
    case "per_file":
      return splitPerFile(stream, "inherit");
    case "per_page":
      return splitPerPage(stream, "inherit");
    case "fixed_pages":
      return splitFixedPages(stream, settings.pages_per_document, "inherit");
    case "separator":
      return splitBySeparators(stream, settings, "inherit");
    default:
      return splitIntelligently(stream, settings, "inherit", opts.classify);
  }
}

function toStream(files: SplitFile[]): StreamPage[] {
  return files.flatMap((f) => f.pages.map((page, i) => ({ page, fileIndex: f.index, firstOfFile: i === 0 })));
}

function wholeFile(f: SplitFile, reason: string): DocumentSpan {
  return { page_numbers: f.pages.map((p) => p.page_number), confidence: 1, reason, policy: f.policy };
}

/** Rule 3: a document that is exactly a one-page file is certain. */
function applyCertainty(spans: DocumentSpan[], files: SplitFile[]): DocumentSpan[] {
  const onePageFiles = new Set(files.filter((f) => f.pages.length === 1).map((f) => f.pages[0].page_number));
  return spans.map((s) =>
    s.page_numbers.length === 1 && onePageFiles.has(s.page_numbers[0]) && s.confidence < 1
      ? { ...s, confidence: 1 }
      : s,
  );
}
