/**
 * Looks at page rasters for separator evidence: barcodes (PATCH-T, Code 39/128, QR) and blank pages.
 * Results are stored on the page (`page.barcodes`, `page.is_blank`) and reused when present, so re-running
 * Split on stored pages gives the same answer without rendering again.
 */
import type { Barcode, Page, RasterImage } from "../model";
import { hasPatchTBars } from "./patch-code";
import type { GreyImage } from "../imaging/grey";
import { greyThumbnail, inkRatio } from "../imaging/grey-thumbnail";
import type { SeparatorSettings } from "../project/split";
import { SHEET_MAX_TEXT } from "../separator-sheet";
import { addStageTime } from "../timing";
import { throwIfAborted } from "../abort";

/** Longest side of the overview image for ink and patch bars: enough to see a line of text, cheap to compute. */
const OVERVIEW_SIDE = 1000;

export interface AnalysisNeeds {
  barcodes: boolean;
  blank: boolean;
  /**
   * Only PATCH-T is looked for. A separator sheet carries little text and is a scan: pages with substantial text
   * (a text layer, or OCR text when the page was read first) and text-layer pages that paint no image are not
   * looked at. Their `barcodes` stay unset, so a later run that needs them still looks.
   */
  patchTOnly?: boolean;
}

/**
 * Fills `barcodes` and `is_blank` on the pages that lack them. Pages without `render()` get what text alone can say:
 * no barcodes, blank when there is no text. A page whose render fails is treated the same way. Throws only when
 * `signal` aborts (checked before every page: rendering and decoding a page costs up to seconds).
 */
export async function analysePages(
  pages: Page[],
  sep: SeparatorSettings,
  needs: AnalysisNeeds,
  signal?: AbortSignal,
): Promise<void> {
  for (const page of pages) {
    throwIfAborted(signal, "split");
    await analysePage(page, sep, needs, undefined, signal);
  }
}

/**
 * Analyses one page. `raster` is the page's render when the caller already has it (the OCR stage renders every
 * scanned page anyway), so a scanned page is rendered once for OCR and separator detection together.
 */
export async function analysePage(
  page: Page,
  sep: SeparatorSettings,
  needs: AnalysisNeeds,
  raster?: RasterImage,
  signal?: AbortSignal,
): Promise<void> {
  const wantBarcodes = needs.barcodes && page.barcodes === undefined && !(needs.patchTOnly && cannotBeSheet(page));
  const wantBlank = needs.blank && page.is_blank === undefined;
  if (!wantBarcodes && !wantBlank) return;
  const hasText = page.text.replace(/\s+/g, "").length >= 3;
  // A page with text is not blank: no need to render for that question alone.
  if (wantBlank && hasText) page.is_blank = false;
  if (!wantBarcodes && page.is_blank !== undefined) return;
  const started = performance.now();
  const img = raster ?? (page.render ? await page.render().catch(() => null) : null);
  // A render cut short by an abort says nothing about the page: stop before caching "no barcodes" on it.
  throwIfAborted(signal, "split");
  const grey = img ? greyThumbnail(img, OVERVIEW_SIDE) : null;
  if (wantBarcodes)
    page.barcodes = img && grey ? inPageSpace(page, img, await findBarcodes(img, grey, sep, signal)) : [];
  if (page.is_blank === undefined) {
    // Without a raster only the text can tell: blank means no text at all.
    page.is_blank = grey ? inkRatio(grey) < sep.blank_ink_ratio : page.text.trim() === "";
  }
  addStageTime(
    raster ? "separator detection (on the OCR raster)" : "separator detection (rendering pages)",
    performance.now() - started,
  );
}

/**
 * Barcode boxes in the page's rasterized space: the OCR stage's raster of a scanned PDF page can be the scan at its
 * own, lower resolution (RenderOptions.scan).
 */
function inPageSpace(page: Page, img: RasterImage, found: Barcode[]): Barcode[] {
  const sx = page.image_transform.rasterized_width / img.width;
  const sy = page.image_transform.rasterized_height / img.height;
  if (sx === 1 && sy === 1) return found;
  return found.map((b) => {
    if (!b.bounding_box) return b;
    const [x1, y1, x2, y2] = b.bounding_box;
    return { ...b, bounding_box: [Math.round(x1 * sx), Math.round(y1 * sy), Math.round(x2 * sx), Math.round(y2 * sy)] };
  });
}

/**
 * Cheap tests before any rendering or decoding: a page with text all over it is no separator sheet, and a
 * born-digital page that paints no image has no scanned sheet on it (conversion checks sparse text-layer pages for
 * images; `paints_images` is unset when it did not look).
 */
function cannotBeSheet(page: Page): boolean {
  if (page.text_source === "text_layer" && page.paints_images === false) return true;
  return (
    (page.text_source === "text_layer" || page.text_source === "ocr") &&
    page.text.replace(/\s+/g, "").length > SHEET_MAX_TEXT
  );
}

/**
 * Decoded barcodes, plus a PATCH-T entry when the patch bars are seen but no "PATCHT" code could be read.
 * @zxing/library (220 modules, about half a second) is loaded here, at the first page looked at for barcodes.
 */
async function findBarcodes(
  img: RasterImage,
  grey: GreyImage,
  sep: SeparatorSettings,
  signal?: AbortSignal,
): Promise<Barcode[]> {
  const { detectBarcodesInTurns } = await import("./barcodes");
  const found = await detectBarcodesInTurns(img, { maxSide: sep.barcode_max_side, signal });
  if (!found.some((b) => b.value.trim().toUpperCase() === "PATCHT") && hasPatchTBars(grey)) {
    found.push({ format: "patch", value: "PATCHT" });
  }
  return found;
}
