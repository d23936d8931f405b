/**
 * Split settings: the `split` slice of the project settings (imported by project/index.ts).
 * Every field has a default, so `SplitSettingsSchema.parse({})` is a complete, usable configuration.
 */
import { z } from "zod";

export const SPLIT_MODES = [
  "per_file",
  "per_page",
  "fixed_pages",
  "separator",
  "intelligent",
  "intelligent_llm_per_source",
] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

export const BARCODE_FORMATS = ["code39", "code128", "qr"] as const;
export type SeparatorBarcodeFormat = (typeof BARCODE_FORMATS)[number];

/** One barcode rule of separator mode: a page carrying a matching barcode starts a new document. */
export const SeparatorBarcodeSchema = z
  .object({
    /** Exact value (compared case-insensitively, surrounding whitespace ignored). */
    value: z.string().min(1).optional(),
    /** Regular expression (JavaScript syntax) the value must match; alternative to `value`. */
    pattern: z
      .string()
      .min(1)
      .refine((p) => isValidRegExp(p), { message: "not a valid regular expression" })
      .optional(),
    formats: z
      .array(z.enum(BARCODE_FORMATS))
      .min(1)
      .default([...BARCODE_FORMATS]),
    /** true: the page carrying the barcode is kept as the first page of the new document; false: it is dropped. */
    keep: z.boolean().default(false),
  })
  .refine((r) => r.value !== undefined || r.pattern !== undefined, {
    message: "a barcode rule needs `value` or `pattern`",
  });
export type SeparatorBarcode = z.infer<typeof SeparatorBarcodeSchema>;

export const SeparatorSettingsSchema = z.object({
  /** PATCH-T sheets (and barcodes reading "PATCHT", as paperless-ngx prints them) separate documents. */
  patch_t: z.boolean().default(true),
  /** Blank pages (no text, next to no ink) separate documents. */
  blank_pages: z.boolean().default(false),
  /** Extra barcode rules (Code 39, Code 128, QR) with a configurable value or pattern. */
  barcodes: z.array(SeparatorBarcodeSchema).default([]),
  /** Keep PATCH-T and blank separator pages as the first page of the next document instead of dropping them. */
  keep_separator: z.boolean().default(false),
  /** Longest side, in pixels, of the image barcodes are searched in (pages are downscaled to it). */
  barcode_max_side: z.number().int().min(400).max(6000).default(2000),
  /**
   * Ink ratio (ink pixels / all pixels, specks ignored) below which a page without text counts as blank.
   * One short line of 14 pt text is about 0.0004; a full text page 0.03 to 0.08.
   */
  blank_ink_ratio: z.number().min(0).max(0.2).default(0.0002),
});
export type SeparatorSettings = z.infer<typeof SeparatorSettingsSchema>;

export const IntelligentSettingsSchema = z.object({
  /** A boundary is placed where the combined signal score reaches this value (0..1). */
  boundary_threshold: z.number().min(0).max(1).default(0.5),
  /** Also treat blank pages and PATCH-T sheets as boundaries (dropped) in intelligent mode. */
  use_separators: z.boolean().default(true),
});
export type IntelligentSettings = z.infer<typeof IntelligentSettingsSchema>;

export const SplitSettingsSchema = z.object({
  /** The project's Split step. Disabled: every file becomes one document regardless of policy (spec rule 5). */
  enabled: z.boolean().default(true),
  mode: z.enum(SPLIT_MODES).default("intelligent"),
  /** Pages per document in `fixed_pages` mode. */
  pages_per_document: z.number().int().min(1).max(10000).default(1),
  separator: SeparatorSettingsSchema.prefault({}),
  intelligent: IntelligentSettingsSchema.prefault({}),
});
// The review threshold for split confidence lives with the other review thresholds (project `review_thresholds.split`).
export type SplitSettings = z.infer<typeof SplitSettingsSchema>;
export type SplitSettingsInput = z.input<typeof SplitSettingsSchema>;

function isValidRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
