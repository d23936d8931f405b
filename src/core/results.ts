import type { DocumentResult, Page, ResultsFile, ResultsPage, RuleResult, Word } from "./model";

/** What the results file says about the transaction; the caller (CLI or server) owns these facts. */
export interface TransactionMeta {
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  project_version: number;
  correlation_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  /** Where the transaction came from: "cli", "api", "capture", "watch". */
  source: string;
  /** Final review action; `{ reviewed: false }` until a reviewer acts. */
  last_human_review?: Record<string, unknown>;
}

export function toResultsPage(page: Page, withWords = false): ResultsPage {
  const entry: ResultsPage = {
    page_number: page.page_number,
    transaction_page_number: page.page_number,
    source_filename: page.source_filename,
    source_file_page_number: page.source_file_page_number,
    image_transform: page.image_transform,
    text_source: page.text_source,
    ocr_confidence: page.ocr_confidence,
  };
  if (withWords) {
    // Read when used: a results file of a long PDF would otherwise unpack every page's packed words at once
    // (convert/page-words.ts); JSON, spreads and structuredClone see a plain array. Assigning replaces it.
    Object.defineProperty(entry, "words", {
      enumerable: true,
      configurable: true,
      get: () => page.words,
      set: (words: Word[]) =>
        Object.defineProperty(entry, "words", { value: words, enumerable: true, configurable: true, writable: true }),
    });
    entry.text = page.text;
  }
  return entry;
}

/** The worst of the statuses wins: error > warning > success. */
export function worstStatus(statuses: Array<"success" | "warning" | "error">): "success" | "warning" | "error" {
  if (statuses.includes("error")) return "error";
  if (statuses.includes("warning")) return "warning";
  return "success";
}

/**
 * Builds the spec's JSON results file. Pages are always included here (with word-level OCR data); export profiles
 * decide what of it reaches a file.
 */
export function buildResultsFile(
  meta: TransactionMeta,
  sourceFileNames: string[],
  documents: DocumentResult[],
  pages: Page[],
  transactionRuleResults: RuleResult[],
  now: Date = new Date(),
): ResultsFile {
  const statuses = [
    ...documents.map((d) => d.validation?.overall_status ?? "success"),
    ...transactionRuleResults.map((r) => r.status),
  ];
  return {
    transaction_id: meta.transaction_id,
    tenant_id: meta.tenant_id,
    project_id: meta.project_id,
    transaction: {
      exported_at: now.toISOString(),
      created_at: meta.created_at,
      source_file_names: sourceFileNames,
      project_version: meta.project_version,
      correlation_id: meta.correlation_id,
      source: meta.source,
      metadata: meta.metadata,
      last_human_review: meta.last_human_review ?? { reviewed: false },
    },
    validation: { overall_status: worstStatus(statuses), transaction_rule_results: transactionRuleResults },
    documents,
    pages: pages.map((p) => toResultsPage(p, true)),
  };
}

/** Page objects rebuilt from the results file (no images). */
export function pagesFromResults(results: ResultsFile): Page[] {
  return (results.pages ?? []).map((p: ResultsPage) => ({
    page_number: p.page_number,
    source_file_index: sourceIndexOf(results, p.source_filename),
    source_filename: p.source_filename,
    source_file_page_number: p.source_file_page_number,
    image_transform: p.image_transform,
    text_source: p.text_source,
    words: p.words ?? [],
    text: p.text ?? "",
    ocr_confidence: p.ocr_confidence,
  }));
}

function sourceIndexOf(results: ResultsFile, filename: string): number {
  const i = results.transaction.source_file_names.indexOf(filename);
  return i < 0 ? 0 : i;
}
