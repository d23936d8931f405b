/**
 * What the OCR stage reads a page as, before reading it: the page as rendered, or the photographed sheet on it
 * squared up (imaging/sheet.ts, sheet-warp.ts); its layout (engines/ocr/layout.ts); and tesseract's page
 * segmentation for it (psmFor).
 *
 * The squared sheet is read when it is a till roll (narrow in line heights): there the dark surround is most of the
 * frame and the frame's own analysis finds no line direction, skew or line height, so tesseract's automatic layout
 * drops the column of amounts. A page photographed on a desk keeps the reading of the frame as it is, which serves
 * it (squaring resamples its small print once more: measured on the sample inbox's Coolblue photo, the VAT
 * amount lost its decimal point), unless no line of text is found on the frame at all (a dim photo of a short
 * receipt: its squared sheet is wider than a till roll in line heights, and the frame read as it is gives nothing).
 */
import { analyzeLayout, type PageLayout } from "../../engines/ocr/layout.ts";
import { crop, type GreyImage } from "../../imaging/grey.ts";
import type { Box } from "../../model.ts";
import { findSheet } from "../../imaging/sheet.ts";
import { squareUp, type SquaredSheet } from "../../imaging/sheet-warp.ts";
import { evenLight, unevenlyLit } from "../../imaging/even-light.ts";
import { straightenLines } from "../../imaging/sheet-lines.ts";

export interface PageGeometry {
  grey: GreyImage;
  /** The squared sheet when it is what is read (boxes map back through `toSource`). */
  sheet: SquaredSheet | null;
  /**
   * The squared sheet is a till roll (narrow in line heights, or long and narrow): one column of lines, each a label
   * and its amount flush right, which no reading order may part into columns (stages/ocr/index.ts).
   */
  roll?: true;
  layout: PageLayout;
  psm: number | undefined;
  /** The squared sheet's geometry, read as well; kept when it reads twice the frame's text (read-geometry.ts). */
  orSheet?: PageGeometry;
}

export function pageGeometry(rendered: GreyImage, dpi: number | undefined): PageGeometry {
  const asRendered = asIs(rendered, dpi);
  const plain = asRendered.layout;
  const found = findSheet(rendered);
  // No sheet found, yet the paper's light is uneven (a hard shadow across a photographed receipt, light falling off
  // across a page): read with the light evened out, or tesseract's one threshold loses the text in the shade.
  if (!found) return unevenlyLit(rendered) ? asIs(evenLight(rendered), dpi) : asRendered;
  const squared = squareUp(rendered, found);
  const flat = analyzeLayout(squared.image);
  // A crumpled or curled receipt's lines straightened, so its amounts stay on their labels' rows.
  const sheet = straightenLines(squared, flat.lineAxis);
  const layout = sheet === squared ? flat : analyzeLayout(sheet.image);
  // A receipt photographed sideways has its lines running down the squared sheet: its width across the lines is
  // the sheet's height, and its length along them the sheet's width.
  const sideways = layout.lineAxis === "down";
  const [across, along] = sideways ? [sheet.image.height, sheet.image.width] : [sheet.image.width, sheet.image.height];
  const psm = psmFor(layout, dpi, across);
  // A frame in which no line of text is found at all (a dim photo: the dark surround swamps the print) is read as
  // its squared sheet when that is narrower than a page, as one block of lines: the automatic layout and the
  // single-column mode read a dim short receipt as rules and specks (measured on receipts-hard photos). A page's
  // columns run across by that mode are set apart again by the reading order (engines/ocr/reading-order.ts).
  // Neither the frame nor the sheet showing lines (small faint print in a cluttered photo) reads the sheet too: the
  // frame adds only the surround's texture.
  const noLines = plain.lineHeight === null;
  const unreadable = noLines && (layout.lineHeight === null || across / layout.lineHeight < PAGE_WIDTH);
  // A sheet several times as long as it is wide is a till roll whatever its layout says: on a long roll photographed
  // whole, the analysis copy (scaled by the long side) is too small for its lines, and no line height is found.
  // Either way round: on a long roll the layout may take its columns of characters for lines running down.
  const roll = Math.max(across, along) >= ROLL_ASPECT * Math.min(across, along);
  if (roll && psm !== SINGLE_BLOCK) return { grey: sheet.image, sheet, layout, psm: SINGLE_BLOCK, roll: true };
  // A till roll's lines are about ROLL_LINES to its width: where none was measured (faint small print), that is its
  // type's height, so the OCR stage enlarges small print as it does when the height is measured.
  const sized =
    layout.lineHeight === null ? { ...layout, lineHeight: Math.max(1, Math.round(across / ROLL_LINES)) } : layout;
  const rolled = psm === SINGLE_BLOCK || roll ? { roll: true as const } : {};
  const asSheet: PageGeometry = { grey: sheet.image, sheet, layout: sized, psm: psm ?? SINGLE_BLOCK, ...rolled };
  if (psm === SINGLE_BLOCK || unreadable) return asSheet;
  // A frame without lines whose sheet measures as wide as a page: a page photographed on a desk (the sample inbox's
  // Coolblue photo, 86 line heights: its frame reads well), or a faint sideways receipt whose columns of characters
  // the analysis took for lines 7 px apart (its frame reads a heading and one amount). Both are read; the sheet's
  // reading is kept when it reads at least twice the frame's text (read-geometry.ts).
  return noLines ? { ...asRendered, orSheet: asSheet } : asRendered;
}

/** Line heights across a till roll: 32-48 characters of a monospaced font a line, a line ~1.3 characters tall. */
const ROLL_LINES = 40;

function asIs(grey: GreyImage, dpi: number | undefined): PageGeometry {
  const layout = analyzeLayout(grey);
  return { grey, sheet: null, layout, psm: psmFor(layout, dpi) };
}

/** Lines at most this many line heights long make a single narrow column: a till roll, 32–48 characters wide. */
const NARROW_COLUMN = 40;
/** A photographed sheet at most this many line heights wide is a till roll (a page is 80 and more). */
const NARROW_SHEET = 56;
/** A photographed sheet this many line heights wide is a page (a page on a desk keeps the frame's reading). */
const PAGE_WIDTH = 80;
/** A photographed sheet this many times as long as it is wide is a till roll (a page is 1.41 times, a letter 1.29). */
const ROLL_ASPECT = 2.5;
/** Ink at most this wide (inches, when the resolution is known) is a till roll: 80 mm paper prints ~72 mm. */
const NARROW_INCHES = 3.6;
/** Tesseract's "single uniform block of text". */
export const SINGLE_BLOCK = 6;
/** Tesseract's "single column of text of variable sizes". */
const SINGLE_COLUMN = 4;

/**
 * A till roll is one column of lines with the amounts flush right. Tesseract's automatic layout (psm 3), and even
 * its single-column mode (psm 4), can set the column of amounts apart as a block of its own and then drop it
 * (the amounts, TOTAL's included, never read) or split "114.81" from "TOTAL"; read as one block of lines (psm 6),
 * every line stays whole. That needs sure evidence of a till roll, as a block read across two columns of a page
 * interleaves them: a photographed sheet few line heights wide, or a narrow ink box at a known resolution. Few
 * line heights across the ink alone (the line height is overestimated on a skewed page, where rows merge) keeps the
 * single-column mode. A page of ordinary width keeps the automatic layout.
 */
function psmFor(layout: PageLayout, dpi?: number, sheetWidth?: number): number | undefined {
  if (!layout.inkBox || !layout.lineHeight) return undefined;
  const [x1, y1, x2, y2] = layout.inkBox;
  const length = layout.lineAxis === "down" ? y2 - y1 : x2 - x1;
  if (sheetWidth !== undefined && sheetWidth / layout.lineHeight <= NARROW_SHEET) return SINGLE_BLOCK;
  if (dpi !== undefined && dpi >= 70 && length / dpi <= NARROW_INCHES) return SINGLE_BLOCK;
  return length / layout.lineHeight <= NARROW_COLUMN ? SINGLE_COLUMN : undefined;
}

/** The part of the page tesseract gets: the content box, unless cutting the margins would save little. */
export function readRegion(grey: GreyImage, contentBox: Box | null): Box {
  if (!contentBox) return [0, 0, grey.width, grey.height];
  const [x1, y1, x2, y2] = contentBox;
  return (x2 - x1) * (y2 - y1) > grey.width * grey.height * 0.9 ? [0, 0, grey.width, grey.height] : contentBox;
}

export function cropTo(grey: GreyImage, [x1, y1, x2, y2]: Box): GreyImage {
  return x2 - x1 === grey.width && y2 - y1 === grey.height ? grey : crop(grey, x1, y1, x2 - x1, y2 - y1);
}
