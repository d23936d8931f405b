/**
 * Reading order from the page's layout, for OCR words. Tesseract finds columns itself on a clean upright page, but
 * on a scan whose skew was misjudged, or one read as a single column, it runs its text lines across the gutter of a
 * two-column page (every word right, the columns interleaved line by line), and even upright it orders the blocks
 * around a photo or a caption its own way. Here the words' own geometry decides, the same whichever way the page
 * was turned: the skew is measured from the words' baselines and undone, text blocks are found (layout-blocks.ts)
 * and read in column order (block-order.ts), each block line by line.
 *
 * Only pages made of columns of prose (half their words in blocks of prose lines side by side) are reordered:
 * invoices, forms and single columns keep tesseract's order and line numbers, so what extraction reads there (a
 * table's rows and cells, a label and its value) stays as tesseract grouped it.
 */
import type { Word } from "../../model.ts";
import { core, orderBlocks } from "./block-order.ts";
import { grain, PROSE_WIDTH } from "./gutters.ts";
import { blocksOf } from "./layout-blocks.ts";
import { median, type TextBlock, type Item } from "./layout-types.ts";
import { meanConfidence, textOfWords } from "./tsv.ts";
import type { OcrResult } from "./types.ts";
import { deskewed, lineSlope, repairAcrossGutters } from "./gutter-repair.ts";

/** Fewer words than this make no columns worth finding. */
const MIN_WORDS = 30;
/** More blocks than this are left in tesseract's order. */
const MAX_BLOCKS = 300;
/** Share of a page's words that must stand in columns of prose for its order to be taken from the layout. */
const COLUMN_SHARE = 0.5;
/** A column of prose has at least this many lines. */
const MIN_COLUMN_LINES = 4;

/**
 * A mark, a letter or a digit or two read at almost no confidence: the texture of a picture beside a column (read
 * "1", "5" in a photo's grey on a 200-DPI scan), never a word of prose. Standing in the line beside it, it carried
 * that line across the page and cut the columns in two.
 */
const pictureNoise = (w: Word) => w.confidence < 0.25 && [...w.text].length <= 2;

/**
 * `result` with its words in layout reading order and lines renumbered, when the page has columns of prose;
 * otherwise `result` itself. Boxes are those of the image that was read (upright, any residual skew allowed).
 */
export function orderByLayout(result: OcrResult): OcrResult {
  const words = result.words;
  if (words.length < MIN_WORDS) return result;
  const height = median(words.map((w) => w.bounding_box[3] - w.bounding_box[1]));
  if (!(height > 0)) return result;
  // Grain in a gutter read as ":" or "~" would stand as lines of its own between the columns' lines.
  const kept = words.filter((w) => !grain(w, height) && !pictureNoise(w));
  const blocks = blocksOf(deskewed(kept, lineSlope(kept, height)), height);
  // Hundreds of blocks are no page of columns but scattered words (a photo read as text): ordering them costs more
  // than it can give (the order is quadratic to cubic in blocks).
  // Not a page of prose columns: only lines tesseract ran across a gutter are repaired (gutter-repair.ts).
  if (blocks.length > MAX_BLOCKS || !hasProseColumns(blocks, height, kept.length)) return repairAcrossGutters(result);
  const ordered: Word[] = [];
  let line = 0;
  for (const block of orderBlocks(blocks)) {
    for (const seg of block.segments) {
      line++;
      for (const item of seg.items) ordered.push({ ...item.word, line });
    }
  }
  return { ...result, words: ordered, text: textOfWords(ordered), confidence: meanConfidence(ordered) };
}

/**
 * Columns of prose make the page: blocks of prose lines that stand beside another such block (over two lines or more)
 * hold at least COLUMN_SHARE of its words. An invoice with its two address blocks side by side is no such page.
 */
function hasProseColumns(blocks: TextBlock[], height: number, words: number): boolean {
  const prose = blocks
    .filter(
      (b) =>
        b.segments.length >= MIN_COLUMN_LINES && median(b.segments.map((s) => s.x2 - s.x1)) >= PROSE_WIDTH * height,
    )
    .map(core);
  const beside = (a: TextBlock, b: TextBlock) =>
    (a.x2 <= b.x1 || b.x2 <= a.x1) && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) >= 2 * height;
  const columns = prose.filter((a) => prose.some((b) => b !== a && beside(a, b)));
  const inColumns = columns.reduce((n, b) => n + b.segments.reduce((m, s) => m + s.items.length, 0), 0);
  return inColumns >= COLUMN_SHARE * words;
}
