/**
 * Text lines tesseract's page layout leaves out. A label framed by a dotted border ("Invoice No: …" in a box) or a
 * line set apart from the text blocks can be classified as a picture or a rule and never recognised. Such a line
 * shows as a row of character-sized blobs of ink that no recognised word covers: found here on a reduced copy
 * (connected components), grouped into lines, and returned as boxes to read one by one as single lines.
 */
import type { Box, Word } from "../../model.ts";
import { otsuThreshold } from "./layout.ts";
import { downscale, type GreyImage } from "./raster.ts";

/** Side of the reduced copy the blobs are found on (px): cheap, and characters stay several pixels high. */
const ANALYSIS_SIZE = 1400;
/** Words below this confidence do not count as reading their ink (tesseract's guess at a border or a smudge). */
const COVERING_CONFIDENCE = 0.3;
/** Lines read per page at most: the extra recognitions stay bounded whatever the page holds. */
const MAX_LINES = 24;

interface Blob {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

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

function medianWordHeight(words: Word[]): number | null {
  const hs = words.filter((w) => w.confidence >= 0.6).map((w) => w.bounding_box[3] - w.bounding_box[1]).sort((a, b) => a - b);
  return hs.length >= 3 ? hs[hs.length >> 1]! : null;
}

/**
 * 1 for ink outside every confidently read word (boxes grown by a pixel of the reduced copy), else 0. Ink is what
 * the page's threshold calls dark, and also faint print: grey text on a shaded band (a table's group headings, a
 * footnote in light grey) lies above the page threshold but well below its surroundings, which a threshold over
 * the whole page cannot see and tesseract's own binarisation drops.
 */
function inkMask(small: GreyImage, words: Word[], factor: number, h: number): Uint8Array {
  const threshold = otsuThreshold(small);
  const mask = new Uint8Array(small.width * small.height);
  for (let i = 0; i < mask.length; i++) mask[i] = small.data[i]! <= threshold && small.data[i]! < 200 ? 1 : 0;
  markFaintInk(small, mask, Math.max(2, Math.round(1.5 * h)));
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
 * Marks pixels darker by FAINT_CONTRAST than the mean of the square of side 2·radius+1 around them (from an integral
 * image, so the cost is a few passes over the reduced copy). The edges of shaded bands stay unmarked: next to a
 * band the mean sits between band and paper, and the band's own pixels are not that much darker than it.
 */
function markFaintInk(img: GreyImage, mask: Uint8Array, radius: number): void {
  const { width, height, data } = img;
  const sums = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x]!;
      sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1]! + row;
    }
  }
  for (let y = 0; y < height; y++) {
    const y1 = Math.max(0, y - radius);
    const y2 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x1 = Math.max(0, x - radius);
      const x2 = Math.min(width, x + radius + 1);
      const sum = sums[y2 * (width + 1) + x2]! - sums[y1 * (width + 1) + x2]! - sums[y2 * (width + 1) + x1]! + sums[y1 * (width + 1) + x1]!;
      const mean = sum / ((y2 - y1) * (x2 - x1));
      if (mean >= LIGHT_PAPER && data[y * width + x]! < mean - FAINT_CONTRAST) mask[y * width + x] = 1;
    }
  }
}

/** 8-connected components of the mask (union-find over one scan), as bounding boxes. */
function components(mask: Uint8Array, width: number, height: number): Blob[] {
  const labels = new Int32Array(mask.length);
  const parent: number[] = [0];
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      let label = 0;
      const join = (j: number) => {
        const other = labels[j]!;
        if (other === 0) return;
        if (label === 0) label = other;
        else if (other !== label) union(label, other);
      };
      // Already labelled neighbours: left, and the three above.
      if (x > 0) join(i - 1);
      if (y > 0) {
        if (x > 0) join(i - width - 1);
        join(i - width);
        if (x < width - 1) join(i - width + 1);
      }
      if (label === 0) {
        label = parent.length;
        parent.push(label);
      }
      labels[i] = label;
    }
  }
  const boxes = new Map<number, Blob>();
  for (let i = 0; i < labels.length; i++) {
    if (!labels[i]) continue;
    const root = find(labels[i]!);
    const x = i % width;
    const y = (i - x) / width;
    const b = boxes.get(root);
    if (!b) boxes.set(root, { x1: x, y1: y, x2: x, y2: y });
    else {
      if (x < b.x1) b.x1 = x;
      if (x > b.x2) b.x2 = x;
      if (y > b.y2) b.y2 = y;
    }
  }
  return [...boxes.values()];
}

/** Left to right, a blob joins the line it overlaps vertically by half its height and follows within two heights. */
function groupIntoLines(blobs: Blob[], h: number): Array<{ box: Blob; count: number }> {
  const lines: Array<{ box: Blob; count: number }> = [];
  for (const b of [...blobs].sort((p, q) => p.x1 - q.x1)) {
    const bh = b.y2 - b.y1 + 1;
    const line = lines.find((l) => {
      const overlap = Math.min(l.box.y2, b.y2) - Math.max(l.box.y1, b.y1) + 1;
      return overlap >= 0.5 * Math.min(bh, l.box.y2 - l.box.y1 + 1) && b.x1 - l.box.x2 <= 2 * h && l.box.y2 - l.box.y1 <= 1.6 * h;
    });
    if (!line) lines.push({ box: { ...b }, count: 1 });
    else {
      line.box = { x1: Math.min(line.box.x1, b.x1), y1: Math.min(line.box.y1, b.y1), x2: Math.max(line.box.x2, b.x2), y2: Math.max(line.box.y2, b.y2) };
      line.count++;
    }
  }
  return lines;
}
