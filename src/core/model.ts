/**
 * The data that flows through the pipeline. Field names that appear in the JSON results file are snake_case,
 * exactly as the interface spec gives them; internal-only fields are camelCase.
 *
 * Coordinate convention (spec "image_transform" and coordinate rules):
 * - every box is [x1, y1, x2, y2] in *rasterized pixel space*, top-left origin, on the page as it was rasterized
 *   (the un-rotated page). `rotation` says how many degrees clockwise the page must be turned to read upright.
 * - original (PDF point or image pixel) = rasterized / render_scale, uniform on both axes.
 * - `page_index` in field boxes is the 1-based transaction page number, the same numbering as `page_number`.
 */

import type { SourceData } from "./source-data";

export type Box = [number, number, number, number];

export type SplitPolicy = "inherit" | "single_document" | "self_contained";
export const SPLIT_POLICIES: readonly SplitPolicy[] = ["inherit", "single_document", "self_contained"];

export interface ImageTransform {
  rasterized_width: number;
  rasterized_height: number;
  source_width: number;
  source_height: number;
  source_unit: "point" | "pixel";
  render_scale: number;
  effective_dpi: number | null;
  coordinate_system: "top-left-origin";
  rotation: number;
  /** Small skew (degrees, clockwise positive) measured and corrected before OCR; boxes are mapped back. */
  skew_degrees?: number;
}

export interface Word {
  text: string;
  /** 0..1 */
  confidence: number;
  bounding_box: Box;
  /** Line number on the page, in reading order; words of one line share it. */
  line?: number;
}

/** A decoded barcode on a page, used by separator-sheet splitting. */
export interface Barcode {
  format: string;
  value: string;
  bounding_box?: Box;
}

/** Grey or RGB(A) raw pixels; channels tells which. */
export interface RasterImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

export type TextSource = "text_layer" | "ocr" | "supplied_text" | "supplied_ocr" | "none";

export interface Page {
  /** 1-based position in the transaction's page stream (also `transaction_page_number`). */
  page_number: number;
  source_file_index: number;
  source_filename: string;
  /** 1-based page number inside its source file. */
  source_file_page_number: number;
  image_transform: ImageTransform;
  text_source: TextSource;
  words: Word[];
  /** Page text in reading order, lines separated by "\n". */
  text: string;
  /** Mean word confidence 0..1, null when there are no words. */
  ocr_confidence: number | null;
  barcodes?: Barcode[];
  /** True when the page carries (next to) no ink and no text. */
  is_blank?: boolean;
  /**
   * Whether a PDF page with a text layer paints images (a scan under its text, a pasted separator sheet). Known
   * only for pages with sparse text, where conversion looks; unset otherwise. Not part of the results file.
   */
  paints_images?: boolean;
  /**
   * Why the page could not be read (a truncated or damaged PDF page): it stands in as an empty page, and the file is
   * then one for a person to look at, never a plain success. Not part of the results file.
   */
  unreadable?: string;
  /** Lazily renders the page at its rasterized size (the coordinate space of its boxes), un-rotated. */
  render?: () => Promise<RasterImage>;
}

/** One input file of a transaction. */
export interface SourceInput {
  index: number;
  filename: string;
  content_type?: string;
  /** In memory, or a large PDF left in its file (source-data.ts): read it with wholeBytes/headBytes. */
  data: SourceData;
  split_policy: SplitPolicy;
  password?: string;
}

/**
 * Supplied OCR data (`ocrData` of the one-step call and `--ocr-data` of the CLI). Documented in docs/inputs.md.
 * Boxes are [x1, y1, x2, y2] in the page's own pixel space (width × height), top-left origin.
 */
export interface OcrDataInput {
  pages: Array<{
    width: number;
    height: number;
    /** Optional DPI of the page image; when given, effective_dpi is reported. */
    dpi?: number;
    rotation?: number;
    words: Array<{ text: string; bbox: Box; confidence?: number }>;
  }>;
  filename?: string;
}

export interface TransactionInput {
  sources: SourceInput[];
  /** Plain text; pages separated by form feed (\f). */
  documentText?: string;
  ocrData?: OcrDataInput;
  pageLimit?: number | null;
}

/** A file after conversion: its pages (only the first page_limit of the transaction), and its true page count. */
export interface ConvertedFile {
  source_file_index: number;
  filename: string;
  content_type: string;
  /** Pages in the whole file, whether processed or not. */
  page_count: number;
  pages: Page[];
  /** Non-fatal problems (a page that failed to render, a broken text layer...). */
  warnings: string[];
  /** Files embedded in the source (PDF attachments), e.g. ZUGFeRD/Factur-X XML. */
  attachments?: Array<{ filename: string; data: Uint8Array }>;
}

export interface Alternative {
  class_id: string;
  type: string;
  confidence: number;
}

export interface Classification {
  class_id: string;
  type: string;
  confidence: number;
  reasoning: string;
  alternatives: Alternative[];
  confirmed: boolean | null;
  review_required: boolean;
}

/** The `split` object of a document in the results file (documented in docs/results.md). */
export interface SplitInfo {
  mode: string;
  policy: SplitPolicy;
  confidence: number;
  reason: string;
  review_required: boolean;
  /** 1-based transaction page numbers of the document, in order. */
  page_numbers: number[];
  source_file_indexes: number[];
  /** Separator pages dropped in front of this document, if any. */
  separator_pages?: number[];
}

export interface FieldBox {
  coordinates: Box;
  /** 1-based transaction page number (same numbering as pages[].page_number). */
  page_index: number;
}

export type FieldValue = string | number | boolean | null | Array<Record<string, FieldValue>>;

export interface FieldResult {
  name: string;
  value: FieldValue;
  confidence: number;
  bounding_boxes: FieldBox[];
  reasoning: string;
  review_required: boolean;
  is_confirmed: boolean | null;
  /** Raw text the value was read from (before normalisation). */
  raw_text?: string;
}

export interface RuleResult {
  rule_id: string;
  /** success | warning | error */
  status: "success" | "warning" | "error";
  message: string;
  field_ids?: string[];
  /** E-invoice rules (core/einvoice/validate): the rule's own flag; `error` status = fatal. */
  severity?: "fatal" | "warning" | "information";
  /** E-invoice rules: XPath of the element the rule fired on. */
  xpath?: string;
  /** Where the result comes from when not from the project's rules: `einvoice` (the XML's own validation). */
  origin?: "einvoice";
}

export interface ValidationResult {
  overall_status: "success" | "warning" | "error";
  rule_results: RuleResult[];
}

export interface DocumentResult {
  document_id: string;
  document_index: number;
  document_type: string;
  classification_confidence: number;
  classification: Classification;
  split: SplitInfo;
  fields: Record<string, FieldResult>;
  validation?: ValidationResult;
}

/** A span of pages the splitter decided is one document. */
export interface DocumentSpan {
  page_numbers: number[];
  confidence: number;
  reason: string;
  policy: SplitPolicy;
  separator_pages?: number[];
}

/** Progress callback: step id, units done, units total. */
export type ProgressFn = (step: string, done: number, total: number) => void;

/** Page entry of the results file (spec "JSON results file", pages[]). */
export interface ResultsPage {
  page_number: number;
  transaction_page_number: number;
  source_filename: string;
  source_file_page_number: number;
  image_transform: ImageTransform;
  text_source: TextSource;
  ocr_confidence: number | null;
  /** Word-level OCR data; present only when an export asks for page OCR data. */
  words?: Word[];
  text?: string;
}

/** The spec's JSON results file (`<transaction_id>_data.json`). */
export interface ResultsFile {
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  transaction: {
    exported_at: string;
    created_at: string;
    source_file_names: string[];
    project_version: number;
    correlation_id: string | null;
    source: string;
    metadata: Record<string, unknown>;
    last_human_review: Record<string, unknown>;
  };
  validation: { overall_status: "success" | "warning" | "error"; transaction_rule_results: RuleResult[] };
  documents: DocumentResult[];
  pages?: ResultsPage[];
}
