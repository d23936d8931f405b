/**
 * Export profiles (spec "Export profiles"): one per output file family of a project.
 *
 * A profile MUST have a unique `id` inside its project (it keys the export manifest), a display `name`, an
 * `output_format` (json | csv | xlsx | xml | pdf | jpg | ubl | cii | facturx), an optional `filename` template (docs/exports.md lists the
 * placeholders; the result is always sanitised) and format-specific `options`. Every option has a default, so
 * `{ id, name, output_format }` is a complete profile.
 */
import { z } from "zod";

/** Accepts `Original` / `CORRECTED` as well as the canonical lower-case values. */
function lowerEnum<T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(values));
}

const profileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "letters, digits, '_', '.', '-' only");

const base = {
  id: profileId,
  name: z.string().min(1).max(200),
  /** File-name template, may contain subfolders; placeholders in docs/exports.md. Default depends on format/scope. */
  filename: z.string().min(1).max(500).optional(),
};

/** `null` = all fields. */
const fieldIds = z.array(z.string().min(1)).nullable().default(null);

export const JsonOptionsSchema = z.object({
  scope: z.enum(["per_transaction", "per_document"]).default("per_transaction"),
  include_validation: z.boolean().default(true),
  include_pages: z.boolean().default(true),
  /** false → each field is its plain value instead of the full field object. */
  include_extraction_metadata: z.boolean().default(true),
  field_ids: fieldIds,
  /** Word-level OCR data (words with boxes, page text) in pages[]; implies pages. */
  include_page_ocr: z.boolean().default(false),
  /** corrected → boxes rotated by image_transform.rotation and `orientation: "corrected"` added. */
  orientation: lowerEnum(["original", "corrected"] as const).default("original"),
});

export const CsvOptionsSchema = z.object({
  /** One row per document, or one row per line item of `line_items_field`. */
  rows: z.enum(["per_document", "per_line_item"]).default("per_document"),
  /** Column ids: document columns (document_id, document_type, ...) and field ids; null = all. */
  columns: z.array(z.string().min(1)).nullable().default(null),
  /** Table field holding the line items; null = the first table-valued field found. */
  line_items_field: z.string().min(1).nullable().default(null),
  delimiter: z
    .string()
    .length(1)
    .refine((d) => !/["\r\n]/.test(d), "delimiter cannot be a quote or newline")
    .default(","),
  include_header: z.boolean().default(true),
  /** UTF-8 byte order mark, so spreadsheet programs read the file as UTF-8. */
  bom: z.boolean().default(true),
});

export const XlsxOptionsSchema = z.object({
  columns: z.array(z.string().min(1)).nullable().default(null),
  line_items_field: z.string().min(1).nullable().default(null),
});

export const XmlOptionsSchema = z.object({
  scope: z.enum(["per_transaction", "per_document"]).default("per_transaction"),
  include_validation: z.boolean().default(true),
  field_ids: fieldIds,
});

export const PdfOptionsSchema = z.object({
  /** Adds invisible text at the OCR word boxes so the PDF is searchable. */
  ocr_text_layer: z.boolean().default(false),
});

export const JpgOptionsSchema = z.object({
  orientation: lowerEnum(["original", "corrected"] as const).default("original"),
  /** original keeps coordinates aligned with the JSON; reduced rescales (breaks alignment). */
  resolution: lowerEnum(["original", "reduced"] as const).default("original"),
  /** With resolution reduced: longest side in pixels (used unless `scale` is given). */
  max_side: z.number().int().min(16).max(20000).default(1600),
  /** With resolution reduced: factor in (0, 1]; wins over max_side. */
  scale: z.number().gt(0).max(1).nullable().default(null),
  /** JPEG quality 1..100: changes bytes, never pixel size. */
  quality: z.number().int().min(1).max(100).default(85),
});

/** Document types written as e-invoices, and defaults for terms they lack (BT id → value; docs/einvoices-export.md). */
const einvoiceBase = {
  document_types: z.array(z.string().min(1)).min(1).default(["invoice", "credit_note", "receipt"]),
  defaults: z
    .record(z.string().regex(/^BT-\d+(-\d)?$/, "a BT id such as BT-44"), z.string().min(1).max(1000))
    .default({}),
};

export const UblOptionsSchema = z.object({
  /** source: the specification the source e-invoice claims (EN 16931 for other documents). */
  customization: z.enum(["source", "en16931", "xrechnung", "peppol"]).default("source"),
  ...einvoiceBase,
});

export const CiiOptionsSchema = z.object({
  /** factur-x: the Factur-X / ZUGFeRD EN 16931 profile (BT-24 urn:cen.eu:en16931:2017). */
  customization: z.enum(["source", "en16931", "factur-x", "xrechnung"]).default("source"),
  ...einvoiceBase,
});

export const FacturxOptionsSchema = z.object({ ...einvoiceBase });

export const ExportProfileSchema = z.discriminatedUnion("output_format", [
  z.object({ ...base, output_format: z.literal("json"), options: JsonOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("csv"), options: CsvOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("xlsx"), options: XlsxOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("xml"), options: XmlOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("pdf"), options: PdfOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("jpg"), options: JpgOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("ubl"), options: UblOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("cii"), options: CiiOptionsSchema.prefault({}) }),
  z.object({ ...base, output_format: z.literal("facturx"), options: FacturxOptionsSchema.prefault({}) }),
]);

/** A parsed profile (defaults applied). */
export type ExportProfile = z.infer<typeof ExportProfileSchema>;
/** What a user may write (options and filename optional). */
export type ExportProfileInput = z.input<typeof ExportProfileSchema>;
export type OutputFormat = ExportProfile["output_format"];
export type ProfileOf<F extends OutputFormat> = Extract<ExportProfile, { output_format: F }>;

export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  "json",
  "csv",
  "xlsx",
  "xml",
  "pdf",
  "jpg",
  "ubl",
  "cii",
  "facturx",
];

/** The JSON profile every project has by default: writes `<transaction_id>_data.json`. */
export const defaultJsonProfile: ProfileOf<"json"> = ExportProfileSchema.parse({
  id: "json",
  name: "JSON results",
  output_format: "json",
}) as ProfileOf<"json">;
