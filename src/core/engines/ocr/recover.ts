/**
 * Text lines tesseract's page layout leaves out. A label framed by a dotted border ("Invoice No: …" in a box) or a
 * line set apart from the text blocks can be classified as a picture or a rule and never recognised. Such a line
 * shows as a row of character-sized blobs of ink that no recognised word covers: found here on a reduced copy
 * (connected components), grouped into lines, and returned as boxes to read one by one as single lines.
 */
import type { Box, Word } from "../../model.ts";
import { otsuThreshold } from "./layout.ts";
import { downscale } from "./downscale.ts";
import type { GreyImage } from "../../imaging/grey.ts";
import { components, type InkBlob } from "./ink-components.ts";

/** Side of the reduced copy the blobs are found on (px): cheap, and characters stay several pixels high. */
const ANALYSIS_SIZE = 1400;
/** Words below this confidence do not count as reading their ink (tesseract's guess at a border or a smudge). */
const COVERING_CONFIDENCE = 0.3;
/** Lines read per page at most: the extra recognitions stay bounded whatever the page holds. */
const MAX_LINES = 24;

/**
 * Boxes (in `img` pixels, padded) of text lines no confident word covers. `textHeight` is the typical height of a
 * line of text in `img` pixels (the median height of the words read so far when not given).
 */
export function unreadLines(img: GreyImage, words: Word[], textHeight?: number | null): Box[] {
  const height = textHeight ?? medianWordHeight(words);
  if (!height) return [];
  const factor = Math.max(1, Math.ceil(Math.max(img.width, img.height) / ANALYSIS_SIZE));
  const small = downscale(img, factor);
  const h = height / factor;
  if (h < 4) return [];
  const ink = inkMask(small, words, factor, h);
  const blobs = components(ink, small.width, small.height).filter((b) => {
    const bh = b.y2 - b.y1 + 1;
    const bw = b.x2 - b.x1 + 1;
    return bh >= 0.3 * h && bh <= 1.3 * h && bw <= 10 * h; // letters, or whole words where they touch
  });
  const lines = groupIntoLines(blobs, h)
    .filter((l) => l.count >= 4 && l.box.x2 - l.box.x1 + 1 >= 2.5 * h)
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_LINES);
  const pad = Math.round(0.4 * height);
  return lines.map(({ box }) => [
    Math.max(0, box.x1 * factor - pad),
    Math.max(0, box.y1 * factor - pad),
    Math.min(img.width, (box.x2 + 1) * factor + pad),
    Math.min(img.height, (box.y2 + 1) * factor + pad),
  ]);
}

export function medianWordHeight(words: Word[]): number | null {
  const hs = words
    .filter((w) => w.confidence >= 0.6)
    .map((w) => w.bounding_box[3] - w.bounding_box[1])
    .sort((a, b) => a - b);
  return hs.length >= 3 ? hs[hs.length >> 1]! : null;
}

/**
 * 1 for ink outside every confidently read word (boxes grown by a pixel of the reduced copy), else 0. Ink is what
 * the page's threshold calls dark, and also faint print: grey text on a shaded band (a table's group headings, a
 * footnote in light grey) lies above the page threshold but well below its surroundings, which a threshold over
 * the whole page cannot see and tesseract's own binarisation drops.
 */
function inkMask(small: GreyImage, words: Word[], factor: number, h: number): Uint8Array {
  const mask = new Uint8Array(small.width * small.height);
  markInk(small, mask, otsuThreshold(small), Math.max(2, Math.round(1.5 * h)));
  for (const w of words) {
    if (w.confidence < COVERING_CONFIDENCE) continue;
    const [x1, y1, x2, y2] = w.bounding_box;
    const ys = Math.max(0, Math.floor(y1 / factor) - 1);
    const ye = Math.min(small.height - 1, Math.ceil(y2 / factor) + 1);
    const xs = Math.max(0, Math.floor(x1 / factor) - 1);
    const xe = Math.min(small.width - 1, Math.ceil(x2 / factor) + 1);
    for (let y = ys; y <= ye; y++) mask.fill(0, y * small.width + xs, y * small.width + xe + 1);
  }
  return mask;
}

/** Faint print is this much darker than the mean of its neighbourhood (grey levels, on 0–255). */
const FAINT_CONTRAST = 18;
/**
 * Only on light paper or a light shaded band: on a dim photo or a dark band every texture would pass as faint ink
 * (and the page's threshold already sees text there).
 */
const LIGHT_PAPER = 200;

/**
 * Marks dark pixels (at or below `threshold`, and below 200) and faint ones: darker by FAINT_CONTRAST than the mean
 * of the square of side 2·radius+1 around them (clipped at the image's edges). The edges of shaded bands stay
 * unmarked: next to a band the mean sits between band and paper, and the band's own pixels are not that much darker.
 * The square's sums come from column sums over the rows of the square, kept up to date row by row, and their
 * running sum along the row: a few operations per pixel and two rows of memory.
 * The mean test is done in integers, `sum ≥ 200·area` and `(v + 18)·area < sum`: the same answers as comparing the
 * float mean (the sum is an integer, so it differs from either bound by at least 1, i.e. by 1/area in the mean, far
 * above a float's rounding). A pixel of 237 or lighter cannot be 18 below a mean of at most 255, so it is not tested.
 */
function markInk(img: GreyImage, mask: Uint8Array, threshold: number, radius: number): void {
  const { width, height, data } = img;
  const columns = new Int32Array(width);
  const prefix = new Int32Array(width + 1);
  const faintLimit = 255 - FAINT_CONTRAST;
  const dark = Math.min(threshold + 1, 200); // v ≤ threshold and v < 200
  for (let y = 0; y < Math.min(height, radius); y++) {
    for (let x = 0, start = y * width; x < width; x++) columns[x]! += data[start + x]!;
  }
  for (let y = 0; y < height; y++) {
    // The columns hold rows max(0, y - radius) .. min(height, y + radius + 1) - 1: the row entering at the bottom
    // added, the one leaving at the top taken away, and their running sum along the row, in one pass.
    slideColumns(
      columns,
      prefix,
      data,
      y + radius < height ? (y + radius) * width : -1,
      y - radius - 1 >= 0 ? (y - radius - 1) * width : -1,
      width,
    );
    const rows = Math.min(height, y + radius + 1) - Math.max(0, y - radius);
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const v = data[row + x]!;
      if (v < dark) {
        mask[row + x] = 1;
        continue;
      }
      if (v >= faintLimit) continue;
      const x1 = Math.max(0, x - radius);
      const x2 = Math.min(width, x + radius + 1);
      const sum = prefix[x2]! - prefix[x1]!;
      const area = rows * (x2 - x1);
      if (sum >= LIGHT_PAPER * area && (v + FAINT_CONTRAST) * area < sum) mask[row + x] = 1;
    }
  }
}

/** Adds the row at `entering`, subtracts the row at `leaving` (either -1 for none), and fills `prefix` with the running sums. */
function slideColumns(
  columns: Int32Array,
  prefix: Int32Array,
  data: Uint8Array,
  entering: number,
  leaving: number,
  width: number,
): void {
  let run = 0;
  if (entering >= 0 && leaving >= 0) {
    for (let x = 0; x < width; x++) {
      const c = columns[x]! + data[entering + x]! - data[leaving + x]!;
      columns[x] = c;
      run += c;
      prefix[x + 1] = run;
    }
  } else if (entering >= 0 || leaving >= 0) {
    const start = entering >= 0 ? entering : leaving;
    const sign = entering >= 0 ? 1 : -1;
    for (let x = 0; x < width; x++) {
      const c = columns[x]! + sign * data[start + x]!;
      columns[x] = c;
      run += c;
      prefix[x + 1] = run;
    }
  } else {
    for (let x = 0; x < width; x++) {
      run += columns[x]!;
      prefix[x + 1] = run;
    }
  }
}

/** Left to right, a blob joins the line it overlaps vertically by half its height and follows within two heights. */
function groupIntoLines(blobs: InkBlob[], h: number): Array<{ box: InkBlob; count: number }> {
  const lines: Array<{ box: InkBlob; count: number }> = [];
  for (const b of [...blobs].sort((p, q) => p.x1 - q.x1)) {
    const bh = b.y2 - b.y1 + 1;
    const line = lines.find((l) => {
      const overlap = Math.min(l.box.y2, b.y2) - Math.max(l.box.y1, b.y1) + 1;
      return (
        overlap >= 0.5 * Math.min(bh, l.box.y2 - l.box.y1 + 1) &&
        b.x1 - l.box.x2 <= 2 * h &&
        l.box.y2 - l.box.y1 <= 1.6 * h
      );
    });
    if (!line) lines.push({ box: { ...b }, count: 1 });
    else {
      line.box = {
        x1: Math.min(line.box.x1, b.x1),
        y1: Math.min(line.box.y1, b.y1),
        x2: Math.max(line.box.x2, b.x2),
        y2: Math.max(line.box.y2, b.y2),
      };
      line.count++;
    }
  }
  return lines;
}
