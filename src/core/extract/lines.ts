/**
 * A page as lines of words with character offsets, so that a regular expression matched on a line's text can be
 * mapped back to the words it came from (and so to their union box).
 */
import { unionBox } from "../geometry";
import type { Box, FieldBox, Page, Word } from "../model";
import { tick } from "./gc-pace";
import { minOf } from "../arrays";

export interface LineWord {
  word: Word;
  /** The word's box on the upright page (see uprightBox): used for geometry, never reported. */
  box: Box;
  /** Character offsets of the word in `Line.text`. */
  start: number;
  end: number;
}

export interface Line {
  page: Page;
  /** Index of the line on its page (reading order). */
  index: number;
  text: string;
  words: LineWord[];
  /** Union of the words' upright boxes. */
  box: Box;
}

/**
 * A box as seen on the upright page. Word boxes are on the un-rotated rasterized page and `rotation` says how far
 * the page must turn clockwise to read upright; "right of" and "below" only mean something upright.
 */
export function uprightBox(b: Box, page: Page): Box {
  const { rasterized_width: W, rasterized_height: H, rotation } = page.image_transform;
  switch ((((rotation ?? 0) % 360) + 360) % 360) {
    case 90:
      return [H - b[3], b[0], H - b[1], b[2]];
    case 180:
      return [W - b[2], H - b[3], W - b[0], H - b[1]];
    case 270:
      return [b[1], W - b[2], b[3], W - b[0]];
    default:
      return b;
  }
}

/**
 * `y` on the levelled page. Word boxes stay on the page as scanned, so on a page skewed 1° two words of one row
 * 1,500 px apart differ by 26 px in height (a line height at 200 DPI); comparing rows across the page ("the value
 * far right of its label") needs the height the point has once the page is straight. The slope is the one the
 * page's own text lines show (textSlope: OCR corrects skews of 0.5° and more only, and its measure is coarser),
 * else the skew OCR measured.
 */
export function levelY(page: Page, x: number, y: number): number {
  const slope = slopeOf(page);
  return slope ? y - slope * (x - uprightSize(page)[0] / 2) : y;
}

const slopes = new WeakMap<Page, { words: Word[]; slope: number }>();
function slopeOf(page: Page): number {
  if (page.text_source !== "ocr") return 0;
  const known = slopes.get(page);
  if (known && known.words === page.words) return known.slope;
  const measured = textSlope(page.words.map((w) => ({ word: w, box: uprightBox(w.bounding_box, page) })));
  const skew = page.image_transform.skew_degrees ?? 0;
  const slope = measured || Math.tan((skew * Math.PI) / 180);
  slopes.set(page, { words: page.words, slope });
  return slope;
}

/** Width and height of the upright page. */
export function uprightSize(page: Page): [number, number] {
  const { rasterized_width: W, rasterized_height: H, rotation } = page.image_transform;
  return Math.abs(rotation ?? 0) % 180 === 90 ? [H, W] : [W, H];
}

/**
 * Words of one page grouped into lines: by `word.line` when OCR/text layer gave it, else by vertical overlap.
 * `byRow` groups by vertical overlap whatever the source says: OCR reads a table column by column as text blocks,
 * and a table row is all the words on one baseline. On a photo the baselines slope (a tilt the deskew did not
 * undo, a shear), so a row's words far apart sit at different heights: rows are then grouped on heights corrected
 * by the slope of the lines OCR did read (see textSlope).
 */
export function pageLines(page: Page, byRow = false): Line[] {
  type Placed = { word: Word; box: Box };
  const placed: Placed[] = page.words
    .filter((w) => w.text.trim())
    .map((w) => ({ word: w, box: uprightBox(w.bounding_box, page) }));
  const groups = new Map<number, Placed[]>();
  if (!byRow && placed.every((p) => typeof p.word.line === "number")) {
    for (const p of placed) {
      const group = groups.get(p.word.line!);
      if (group) group.push(p);
      else groups.set(p.word.line!, [p]);
    }
    if (page.text_source === "ocr") joinRowFragments(groups, page);
  } else {
    const slope = byRow ? textSlope(placed) : 0;
    groupByOverlap(placed, slope).forEach((ps, i) => groups.set(i, ps));
  }
  const lines: Line[] = [];
  for (const key of [...groups.keys()].sort((a, b) => a - b)) {
    tick();
    const ps = groups
      .get(key)!
      .slice()
      .sort((a, b) => a.box[0] - b.box[0]);
    // Offsets counted and the text joined once: `text += word` would build a rope of two string cells per word,
    // all alive until the text is first read flat (tens of MB for a document of a thousand pages).
    let at = 0;
    const words: LineWord[] = [];
    const texts: string[] = [];
    for (const p of ps) {
      if (texts.length) at++;
      const start = at;
      at += p.word.text.length;
      words.push({ word: p.word, box: p.box, start, end: at });
      texts.push(p.word.text);
    }
    lines.push({ page, index: lines.length, text: texts.join(" "), words, box: unionBox(ps.map((p) => p.box)) });
  }
  return lines;
}

/**
 * OCR lines that are pieces of one printed line: on the same row (levelled, see levelY) and a word space or so
 * apart. Tesseract cuts a line where the font changes or a large word stands ("Tengal" | "Druckerei AG",
 * "Grand" | "Total"), and a label or name cut in two is found by nothing. Pieces a column gap apart (over 0.8 line
 * heights) stay apart. The joined line keeps the earlier piece's place in reading order.
 */
function joinRowFragments(groups: Map<number, Array<{ word: Word; box: Box }>>, page: Page): void {
  const boxOf = (k: number) => unionBox(groups.get(k)!.map((p) => p.box));
  const level = (b: Box, y: number) => levelY(page, (b[0] + b[2]) / 2, y);
  const inside = (p: Box, q: Box) => {
    const cy = level(p, (p[1] + p[3]) / 2);
    return cy >= level(q, q[1]) && cy <= level(q, q[3]);
  };
  const near = (ka: number, kb: number) => {
    const [a, b] = [boxOf(ka), boxOf(kb)];
    const [ha, hb] = [a[3] - a[1], b[3] - b[1]];
    if (Math.min(ha, hb) < 0.5 * Math.max(ha, hb) || !inside(a, b) || !inside(b, a)) return false;
    // Where the pieces meet (side by side, or one inside the other: "Travel [Distribuciones] S.A."), words a word
    // space apart, never on top of each other.
    const h = Math.max(ha, hb);
    const words = [...groups.get(ka)!.map((p) => ({ p, a: true })), ...groups.get(kb)!.map((p) => ({ p, a: false }))];
    words.sort((x, y) => x.p.box[0] - y.p.box[0]);
    for (let i = 1; i < words.length; i++) {
      if (words[i]!.a === words[i - 1]!.a) continue;
      const gap = words[i]!.p.box[0] - words[i - 1]!.p.box[2];
      if (gap > 0.8 * h || gap < -0.2 * h) return false;
    }
    return true;
  };
  const keys = [...groups.keys()].sort((a, b) => a - b);
  for (let i = 0; i < keys.length; i++) {
    if (!groups.has(keys[i]!)) continue;
    for (let j = i + 1; j < keys.length; j++) {
      const [a, b] = [keys[i]!, keys[j]!];
      if (!groups.has(b) || !near(a, b)) continue;
      groups.set(a, [...groups.get(a)!, ...groups.get(b)!]);
      groups.delete(b);
      j = i; // the joined line may now reach another piece
    }
  }
}

/** Below this slope (about 0.3°) baselines count as level: straight pages group exactly as before. */
const LEVEL = 0.005;

/**
 * The slope (dy/dx) of the page's text lines: the median over the lines OCR read as several words spread over a
 * wide span of the least-squares slope of their word centres. 0 when there are too few such lines or the slope is
 * negligible.
 */
export function textSlope(placed: Array<{ word: Word; box: Box }>): number {
  const byLine = new Map<number, Box[]>();
  for (const p of placed)
    if (typeof p.word.line === "number") byLine.set(p.word.line, [...(byLine.get(p.word.line) ?? []), p.box]);
  const slopes: number[] = [];
  for (const boxes of byLine.values()) {
    if (boxes.length < 3) continue;
    const pts = boxes.map((b) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] as const);
    const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
    const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
    const height = minOf(boxes.map((b) => b[3] - b[1]));
    // A short line says little about the slope: its span must be many character heights.
    if (Math.sqrt(sxx / pts.length) < 3 * Math.max(1, height)) continue;
    slopes.push(pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx);
  }
  if (slopes.length < 3) return 0;
  const median = slopes.sort((a, b) => a - b)[slopes.length >> 1]!;
  return Math.abs(median) < LEVEL ? 0 : median;
}

/** Items grouped into rows by vertical overlap of their boxes, heights corrected by `slope` (0: as printed). */
function groupByOverlap<T extends { box: Box }>(items: T[], slope = 0): T[][] {
  const level = (b: Box): Box => {
    const dy = slope * ((b[0] + b[2]) / 2);
    return [b[0], b[1] - dy, b[2], b[3] - dy];
  };
  const placed = items.map((item) => ({ item, box: level(item.box) }));
  const sorted = placed.sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3]));
  const lines: Array<typeof placed> = [];
  for (const p of sorted) {
    const cy = (p.box[1] + p.box[3]) / 2;
    const last = lines[lines.length - 1];
    if (last) {
      const box = unionBox(last.map((x) => x.box));
      // Either centre inside the other's height: a speck-sized box (a lone digit OCR boxed tightly) joins its row.
      const lineCy = (box[1] + box[3]) / 2;
      if ((cy >= box[1] && cy <= box[3]) || (slope !== 0 && lineCy >= p.box[1] && lineCy <= p.box[3])) {
        last.push(p);
        continue;
      }
    }
    lines.push([p]);
  }
  return lines.map((l) => l.map((p) => p.item));
}

/** The words of `line` that the character range [start, end) touches. */
export function wordsInRange(line: Line, start: number, end: number): LineWord[] {
  return line.words.filter((w) => w.start < end && w.end > start);
}

/** A piece of evidence: words of one line and the raw text they carry. */
export interface Span {
  line: Line;
  words: LineWord[];
  text: string;
}

export function spanOf(line: Line, start: number, end: number): Span {
  return { line, words: wordsInRange(line, start, end), text: line.text.slice(start, end) };
}

/**
 * Field boxes for spans: one union box per page (in the order pages first appear), `page_index` = the page's 1-based
 * transaction page number. The union grows word by word: a table's spans hold thousands of words, and gathering
 * their boxes into lists first cost more than the union itself.
 */
export function boxesOf(spans: Span[]): FieldBox[] {
  // null: the page's spans have no words yet (a page without words gets no box, but keeps its place).
  const byPage = new Map<number, Box | null>();
  for (const s of spans) {
    const page = s.line.page.page_number;
    let box = byPage.get(page) ?? null;
    if (!byPage.has(page)) byPage.set(page, null);
    for (const w of s.words) {
      const b = w.word.bounding_box;
      if (!box) byPage.set(page, (box = [b[0], b[1], b[2], b[3]]));
      box[0] = Math.min(box[0], b[0]);
      box[1] = Math.min(box[1], b[1]);
      box[2] = Math.max(box[2], b[2]);
      box[3] = Math.max(box[3], b[3]);
    }
  }
  const out: FieldBox[] = [];
  for (const [page_index, coordinates] of byPage) if (coordinates) out.push({ page_index, coordinates });
  return out;
}

/** Mean word confidence of spans (1 when there are no words, e.g. supplied text). */
export function ocrConfidenceOf(spans: Span[]): number {
  const confs = spans.flatMap((s) => s.words.map((w) => w.word.confidence));
  if (!confs.length) return 1;
  return confs.reduce((a, b) => a + b, 0) / confs.length;
}

/** Horizontal overlap of two boxes in pixels (negative when apart). */
export function xOverlap(a: Box, b: Box): number {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
}

export function lineHeight(line: Line): number {
  return Math.max(1, line.box[3] - line.box[1]);
}

/** The cells of a line: runs of words without a column gap (wider than two line heights) between them. */
export function cellsOf(line: Line): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  line.words.forEach((w, i) => {
    const prev = line.words[i - 1];
    if (!prev || w.box[0] - prev.box[2] > lineHeight(line) * 2) out.push([w.start, w.end]);
    else out[out.length - 1]![1] = w.end;
  });
  return out;
}

/**
 * A row opened by the qualifier and printing a rate by the label ("zzgl. USt 19 %", "plus 20% VAT", "inkl. 19 %
 * MwSt."): the qualifier says what the amount is added to or held in, the row is the tax's own.
 */
export function rateRow(line: Line, start: number, end: number, qualifier: LineWord | undefined): boolean {
  if (!qualifier) return false;
  const i = line.words.indexOf(qualifier);
  const prev = line.words[i - 1];
  if (prev && qualifier.box[0] - prev.box[2] <= lineHeight(line)) return false;
  const near = line.text.slice(qualifier.end, Math.min(line.text.length, end + 12));
  return /(?<![\d.,])\d{1,2}(?:[.,]\d{1,2})?\s?%/.test(near) && start >= qualifier.end;
}
