/** Types and helpers shared by the exporters (kept apart from run.ts so exporters do not import the runner). */
import type { DocumentResult, Page, ResultsFile, SourceInput } from "../model";
import type { ExportData, ExportSink } from "./sink";
import { fileStem, type TemplateValues } from "./filename";

/**
 * Everything an export run needs. `results` MUST include `pages` when page data is to be exported; `pages` carry
 * `render()` for raster formats (JPG, image-only PDF pages) and `words` for the PDF text layer; `sources` hold the
 * original bytes (PDF export copies original PDF pages and embeds original images).
 */
export interface ExportContext {
  results: ResultsFile;
  pages: Page[];
  sources: SourceInput[];
  sink: ExportSink;
  now?: () => Date;
  /**
   * Aborts the run (job timeout, shutdown, deletion): checked before every profile, page and file; an abort ends the
   * whole export with the abort's error, never as one failed profile among others.
   */
  signal?: AbortSignal;
  /**
   * The e-invoice validator the ubl, cii and facturx profiles run on every file before writing it (after their own
   * checks: mandatory terms, totals arithmetic, well-formed XML); nothing it calls invalid is written. Default:
   * core/einvoice/validate (the official EN 16931 and XRechnung Schematron). Tests inject their own.
   */
  validateEInvoice?: EInvoiceValidator;
}

export interface EInvoiceValidationResult {
  valid: boolean;
  results: Array<{ rule_id: string; severity: string; message: string; xpath?: string }>;
}

export type EInvoiceValidator = (xml: string | Uint8Array) => Promise<EInvoiceValidationResult>;

/** What an exporter hands its files to; the runner names, stores and lists them. */
export interface ExportWriter {
  /** `name` is a rendered template (not yet unique). */
  file(name: string, data: ExportData, documentIds: string[]): Promise<void>;
  /** A survivable problem (a page without an image...); the profile entry gets status "partial". */
  warn(message: string): void;
}

export function pageByNumber(ctx: ExportContext, pageNumber: number): Page | undefined {
  return ctx.pages.find((p) => p.page_number === pageNumber);
}

export function documentIdsOfPage(results: ResultsFile, pageNumber: number): string[] {
  return results.documents.filter((d) => d.split.page_numbers.includes(pageNumber)).map((d) => d.document_id);
}

/** Stem of the first source file, or the transaction id when there is none (supplied text). */
export function transactionStem(results: ResultsFile): string {
  const first = results.transaction.source_file_names[0];
  return first ? fileStem(first) : results.transaction_id;
}

function stemOfPage(ctx: ExportContext, pageNumber: number | undefined): string {
  const page =
    pageNumber === undefined
      ? undefined
      : (pageByNumber(ctx, pageNumber) ?? ctx.results.pages?.find((p) => p.page_number === pageNumber));
  return page ? fileStem(page.source_filename) : transactionStem(ctx.results);
}

export function transactionValues(ctx: ExportContext, profileId: string): TemplateValues {
  return {
    transaction_id: ctx.results.transaction_id,
    project_id: ctx.results.project_id,
    tenant_id: ctx.results.tenant_id,
    profile_id: profileId,
    source_stem: transactionStem(ctx.results),
  };
}

export function documentValues(ctx: ExportContext, profileId: string, doc: DocumentResult): TemplateValues {
  return {
    ...transactionValues(ctx, profileId),
    document_id: doc.document_id,
    document_index: doc.document_index,
    document_type: doc.document_type,
    source_stem: stemOfPage(ctx, doc.split.page_numbers[0]),
  };
}

export function pageValues(ctx: ExportContext, profileId: string, pageNumber: number): TemplateValues {
  const doc = ctx.results.documents.find((d) => d.split.page_numbers.includes(pageNumber));
  const base = doc ? documentValues(ctx, profileId, doc) : transactionValues(ctx, profileId);
  return { ...base, source_stem: stemOfPage(ctx, pageNumber), page_number: pageNumber };
}
