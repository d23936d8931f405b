/**
 * A page's geometry (geometry.ts) read: the part of the page tesseract gets, enlarged when its print is small, read
 * at its most likely turn (orientation.ts). stages/ocr/index.ts reads a page through it once, or twice when its
 * geometry offers the photographed sheet as well (`orSheet`).
 */
import type { PageLayout } from "../../engines/ocr/layout.ts";
import type { OcrEngine } from "../../engines/ocr/types.ts";
import { upscale, type GreyImage } from "../../imaging/grey.ts";
import type { Box } from "../../model.ts";
import { timeStage, timeStageSync } from "../../timing.ts";
import { cropTo, type PageGeometry, readRegion } from "./geometry.ts";
import { blankReading, goodChars, MORE_TEXT, type Reading, readUpright } from "./orientation.ts";

export interface GeometryReading {
  geometry: PageGeometry;
  /** The part of `geometry.grey` read, and how much it was enlarged. */
  region: Box;
  zoom: number;
  /** The DPI tesseract was told, when the page's is known. */
  readDpi: number | undefined;
  /** The enlarged region (un-rotated) and its layout: what is read again in another language. */
  image: GreyImage;
  upright: PageLayout;
  reading: Reading;
}

/**
 * The page's geometry read. A frame without lines offers its photographed sheet as well (geometry.ts says when): the
 * sheet's reading is kept when it reads at least twice the text. A page on a desk reads about as much either way and
 * keeps the frame's reading, whose layout keeps its label/value rows (read as one block, the inbox's Coolblue photo
 * lost its invoice number); a faint sideways receipt whose frame reads a heading and an amount keeps its sheet's.
 */
export async function readPageGeometry(
  geometry: PageGeometry,
  dpi: number | undefined,
  engine: OcrEngine,
): Promise<GeometryReading> {
  const frame = await readGeometry(geometry, dpi, engine);
  if (!geometry.orSheet) return frame;
  const sheet = await timeStage("ocr: the sheet instead", () => readGeometry(geometry.orSheet!, dpi, engine));
  return goodChars(sheet.reading) >= MORE_TEXT * goodChars(frame.reading) ? sheet : frame;
}

async function readGeometry(
  geometry: PageGeometry,
  dpi: number | undefined,
  engine: OcrEngine,
): Promise<GeometryReading> {
  const { grey, layout, psm } = geometry;
  const region = readRegion(grey, layout.contentBox);
  const cropped = cropTo(grey, region);
  const zoom = zoomFor(layout.lineHeight, cropped);
  const readDpi = dpi && dpi >= 70 ? dpi * zoom : undefined;
  const image = layout.inkBox && zoom > 1 ? timeStageSync("ocr: enlargement", () => upscale(cropped, zoom)) : cropped;
  const upright = scaleLayout(shiftLayout(layout, region), zoom);
  const reading = layout.inkBox ? await readUpright(image, upright, engine, readDpi, psm) : blankReading(grey);
  return { geometry, region, zoom, readDpi, image, upright, reading };
}

/** Below this median line height (px) text is too small for tesseract (10-point type under ~120 DPI). */
const SMALL_LINES = 16;
/** Line height the enlargement aims at: tesseract's sweet spot (x-height around 16 px). */
const TARGET_LINES = 32;
const MAX_ZOOM = 3;
/** Enlarged images stay below this size (pixels). */
const MAX_ZOOMED_PIXELS = 25_000_000;

/** How much to enlarge the image before reading it: 1 unless its text lines are small. */
function zoomFor(lineHeight: number | null, img: GreyImage): number {
  if (lineHeight === null || lineHeight >= SMALL_LINES) return 1;
  const zoom = Math.min(
    MAX_ZOOM,
    TARGET_LINES / Math.max(1, lineHeight),
    Math.sqrt(MAX_ZOOMED_PIXELS / (img.width * img.height)),
  );
  return zoom >= 1.25 ? zoom : 1;
}

function scaleLayout(layout: PageLayout, zoom: number): PageLayout {
  if (zoom === 1) return layout;
  const scale = (b: Box | null): Box | null => (b ? [b[0] * zoom, b[1] * zoom, b[2] * zoom, b[3] * zoom] : null);
  return {
    ...layout,
    inkBox: scale(layout.inkBox),
    contentBox: scale(layout.contentBox),
    lineHeight: layout.lineHeight && layout.lineHeight * zoom,
  };
}

function shiftLayout(layout: PageLayout, [dx, dy]: Box): PageLayout {
  const shift = (b: Box | null): Box | null => (b ? [b[0] - dx, b[1] - dy, b[2] - dx, b[3] - dy] : null);
  return { ...layout, inkBox: shift(layout.inkBox), contentBox: shift(layout.contentBox) };
}
