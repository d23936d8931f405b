/**
 * Looks at page rasters for separator evidence: barcodes (PATCH-T, Code 39/128, QR) and blank pages.
 * Results are stored on the page (`page.barcodes`, `page.is_blank`) and reused when present, so re-running
 * Split on stored pages gives the same answer without rendering again.
 */
import type { Page } from "../model";
import { detectBarcodes } from "./barcodes";
import { inkRatio, toGrey } from "./raster";
import type { SeparatorSettings } from "./settings";

/** Longest side used to measure ink: enough to see a line of text, cheap to compute. */
const INK_SIDE = 800;

export interface AnalysisNeeds {
  barcodes: boolean;
  blank: boolean;
}

/**
 * Fills `barcodes` and `is_blank` on the pages that lack them. Pages without `render()` get what text alone can say:
 * no barcodes, blank when there is no text. A page whose render fails is treated the same way (never throws).
 */
export async function analysePages(pages: Page[], sep: SeparatorSettings, needs: AnalysisNeeds): Promise<void> {
  for (const page of pages) {
    const wantBarcodes = needs.barcodes && page.barcodes === undefined;
    const wantBlank = needs.blank && page.is_blank === undefined;
    if (!wantBarcodes && !wantBlank) continue;
    const hasText = page.text.replace(/\s+/g, "").length >= 3;
    // A page with text is not blank: no need to render for that question alone.
    if (wantBlank && hasText) page.is_blank = false;
    if (!wantBarcodes && page.is_blank !== undefined) continue;
    const img = page.render ? await page.render().catch(() => null) : null;
    if (wantBarcodes) page.barcodes = img ? detectBarcodes(img, { maxSide: sep.barcode_max_side }) : [];
    if (page.is_blank === undefined) {
      page.is_blank = img ? inkRatio(toGrey(img, INK_SIDE)) < sep.blank_ink_ratio : !hasText;
    }
  }
}
