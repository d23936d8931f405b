/**
 * Separator-sheet rules: which pages start a new document, and whether the separator page is kept or dropped.
 */
import type { Barcode, Page } from "../model";
import type { SeparatorBarcode, SeparatorSettings } from "../project/split";

export interface SeparatorHit {
  /** drop: the page only separates; keep: the page is the first page of the next document. */
  action: "drop" | "keep";
  reason: string;
}

/** What paperless-ngx and Kodak scanners print on PATCH-T sheets as a readable code (Code 39 "PATCHT"). */
const PATCH_T_VALUE = "PATCHT";

/**
 * Decides whether a page is a separator. Configured barcode rules come first (their own keep flag), then PATCH-T,
 * then blank pages. Needs `page.barcodes` / `page.is_blank` from analysePages.
 */
export function separatorOf(page: Page, sep: SeparatorSettings): SeparatorHit | null {
  const barcodes = page.barcodes ?? [];
  for (const rule of sep.barcodes) {
    const hit = barcodes.find((b) => barcodeMatches(b, rule));
    if (hit) {
      return {
        action: rule.keep ? "keep" : "drop",
        reason: `${describe(hit)} on page ${page.page_number} matches a separator rule`,
      };
    }
  }
  const keepOrDrop = sep.keep_separator ? "keep" : "drop";
  if (sep.patch_t) {
    const hit = barcodes.find((b) => normaliseValue(b.value) === PATCH_T_VALUE);
    if (hit)
      return { action: keepOrDrop, reason: `PATCH-T separator sheet (${describe(hit)}) on page ${page.page_number}` };
  }
  if (sep.blank_pages && page.is_blank === true) {
    return { action: keepOrDrop, reason: `blank page ${page.page_number}` };
  }
  return null;
}

export function barcodeMatches(barcode: Barcode, rule: SeparatorBarcode): boolean {
  if (!rule.formats.includes(barcode.format as SeparatorBarcode["formats"][number])) return false;
  if (rule.value !== undefined && normaliseValue(barcode.value) !== normaliseValue(rule.value)) return false;
  if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(barcode.value.trim())) return false;
  return true;
}

function normaliseValue(value: string): string {
  return value.trim().toUpperCase();
}

function describe(b: Barcode): string {
  return b.format === "patch" ? "patch bars" : `${b.format} barcode "${b.value}"`;
}
