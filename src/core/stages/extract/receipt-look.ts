/**
 * A second look at a till receipt read by OCR whose total its own arithmetic does not confirm (tendered − change, a
 * card's payment, the items' sum, subtotal + a tax: extract/receipt-total.ts totalHolds), or whose total was not
 * found. The rows of its sums (lines with a sums word or a digit, from the first total line down; a label and its
 * amount that OCR read as two lines make one row) are read again, each cut out level across the receipt's width as a
 * single line, at the resolution the page was scanned at: a 200-DPI JPEG scan drawn at the OCR resolution is enlarged
 * without smoothing, every second pixel doubled, and tesseract reads its speckle as marks and loses digits ("49.70"
 * read ".70", "22.26" read "“23.28 en"), while the same row at its own pixels reads clean. The row's sure numbers
 * replace those first read (its words stay as they were), the fields are extracted again, and the total (with its
 * subtotal and tax) is adopted only when the receipt's arithmetic now confirms it; otherwise the first reading stands.
 *
 * Only scanned PDF pages drawn for OCR above their scan's resolution: a photo's rows are not level across the page,
 * and a page read at its own pixels would be read as it was. Costs nothing on a receipt whose total is confirmed: no
 * image is rendered, no row read. At most MAX_ROWS rows, in one call of the engine. */
import type { FieldResult, Page, RasterImage, Word } from "../../model";
import type { OcrEngine } from "../../engines/ocr/types";
import { toGrey, type GreyImage } from "../../imaging/grey";
import type { RenderOptions } from "../../imaging/render";
import { textOfWords, meanConfidence } from "../../engines/ocr/tsv";
import { levelY, pageLines, uprightSize, type Line } from "../../extract/lines";
import { inferDateOrder, type DateOrder } from "../../extract/normalize";
import { fold } from "../../extract/fuzzy";
import { totalHolds } from "../../extract/receipt-total";
import { maxOf, minOf } from "../../arrays";

/** Tesseract's page segmentation mode for "a single text line". */
const SINGLE_LINE = 7;
/** Rows read again per receipt at most. */
const MAX_ROWS = 14;
/** A word of a row read again is kept only this sure of itself (speckle reads as garbage below it). */
const RESURE = 0.5;
const AMOUNTS = ["subtotal_amount", "tax_amount", "total_amount"];
/** Words of a receipt's sums and payment rows. */
const SUMS =
  /(?<![\p{L}])(total|sub-?\s?total|tax|gst|vat|sst|mwst|tva|btw|rounding|round|cash|change|tendered|paid|balance|due|amount|card|visa|summe|bar|totaal|jumlah|tunai|baki)(?![\p{L}])/iu;

/** Where a receipt's sums begin: its first total or subtotal line. */
const SUMS_START = /(?<![\p{L}])(total|sub-?\s?total|summe|totaal|jumlah|amount\s?due|balance)(?![\p{L}])/iu;

const num = (f: FieldResult | undefined) => (typeof f?.value === "number" ? f.value : null);

/** Whether the receipt's arithmetic confirms the total of `fields` on `pages`. */
export function receiptTotalConfirmed(pages: Page[], fields: Record<string, FieldResult>, locale: string): boolean {
  const total = num(fields.total_amount);
  if (total === null) return false;
  const lines = pages.flatMap((p) => pageLines(p));
  const order = dateOrderOf(lines, locale);
  const box = fields.total_amount!.bounding_boxes?.[0];
  const line = box ? lines.find((l) => l.page.page_number === box.page_index && within(l, box.coordinates)) : undefined;
  return totalHolds(total, line, [num(fields.subtotal_amount), num(fields.tax_amount)], lines, order);
}

/**
 * `fields` with the total of a second look when the receipt's arithmetic confirms it where the first reading's did
 * not; `extract` extracts the receipt's fields from pages. Pages whose rows were read again keep them when adopted.
 */
export async function receiptSecondLook(
  pages: Page[],
  fields: Record<string, FieldResult>,
  engine: OcrEngine,
  extract: (pages: Page[]) => Record<string, FieldResult>,
  locale: string,
): Promise<Record<string, FieldResult>> {
  // Scanned PDF pages: a photo's rows are not level across the page (perspective, a curved roll), and an image file
  // was read at its own pixels already.
  const ocr = pages.filter(
    (p) =>
      p.text_source === "ocr" &&
      p.render &&
      !(p.image_transform.rotation ?? 0) &&
      p.image_transform.source_unit === "point",
  );
  // An e-invoice's total (confidence 1) is sure: never read again.
  if (!ocr.length || fields.total_amount?.confidence === 1 || receiptTotalConfirmed(pages, fields, locale))
    return fields;
  let budget = MAX_ROWS;
  const swaps = new Map<Page, Page>();
  for (const page of ocr) {
    const rows = sumsRows(page, fields.total_amount).slice(0, budget);
    budget -= rows.length;
    if (!rows.length) continue;
    const read = await readRows(page, rows, engine).catch(() => null);
    if (read) swaps.set(page, read);
  }
  if (!swaps.size) return fields;
  const looked = pages.map((p) => swaps.get(p) ?? p);
  const next = extract(looked);
  const total = num(next.total_amount);
  if (total === null || total === num(fields.total_amount) || !receiptTotalConfirmed(looked, next, locale))
    return fields;
  for (const [i, p] of pages.entries()) {
    const { words, text, ocr_confidence } = looked[i]!;
    if (looked[i] !== p) Object.assign(p, { words, text, ocr_confidence });
  }
  const out = { ...fields };
  for (const id of AMOUNTS.filter(
    (id) => next[id] && JSON.stringify(next[id]!.value) !== JSON.stringify(fields[id]?.value),
  ))
    out[id] = { ...next[id]!, reasoning: `${next[id]!.reasoning}; sums rows read again (second look)` };
  return out;
}

function dateOrderOf(lines: Line[], locale: string): DateOrder {
  return inferDateOrder([lines.map((l) => l.text).join("\n")], locale, false);
}

const within = (l: Line, b: number[]) => l.box[1] <= b[1]! + 2 && l.box[3] >= b[3]! - 2;

/** The page's sums rows: from its first total line (or the total's) down, the lines with a sums word or a digit. */
function sumsRows(page: Page, total: FieldResult | undefined): Line[] {
  const lines = pageLines(page).sort((a, b) => a.box[1] - b.box[1]);
  // No total line by those words ("NET A PAYER", "TE BETALEN"): from the line the total was read on.
  const box = total?.bounding_boxes?.find((b) => b.page_index === page.page_number)?.coordinates;
  const start = lines.findIndex((l) => SUMS_START.test(fold(l.text)));
  const first = start >= 0 || !box ? start : lines.findIndex((l) => within(l, box));
  if (first < 0) return [];
  return lines
    .slice(first)
    .filter((l) => SUMS.test(fold(l.text)) || /\d/.test(l.text))
    .slice(0, MAX_ROWS);
}

/**
 * The page with `rows` read again: each row's band across the text's width, at the scan's own resolution, one line
 * each; the words of the band (the row's, and an amount OCR read as a line of its own beside it) give way to the
 * row's sure new words. A row read as nothing stays as it was. Null when nothing changed.
 */
async function readRows(page: Page, rows: Line[], engine: OcrEngine): Promise<Page | null> {
  // A scanned PDF page at its scan's own pixels (RenderOptions.own); boxes scale back into the page's space.
  const render = page.render as (o?: RenderOptions) => Promise<RasterImage>;
  const grey = toGrey(await render({ grayscale: true, own: true }));
  const scale = grey.width / page.image_transform.rasterized_width;
  // Drawn at its own resolution already (a 300-DPI scan): read as the first reading was, nothing to gain.
  if (scale > 0.95) return null;
  const xs = page.words.flatMap((w) => [w.bounding_box[0], w.bounding_box[2]]);
  const [left, right] = [Math.max(0, minOf(xs) - 12), Math.min(page.image_transform.rasterized_width, maxOf(xs) + 12)];
  const slope = levelY(page, 0, 0) - levelY(page, 1, 0);
  const mid = uprightSize(page)[0] / 2;
  const bands = bandsOf(page, rows).map((b) => ({ ...b, img: cutBand(grey, page, b, [left, right], scale) }));
  const dpi = page.image_transform.effective_dpi;
  const opts = { psm: SINGLE_LINE, ...(dpi ? { dpi: Math.round(dpi * scale) } : {}) };
  const imgs = bands.map((b) => ({ ...b.img, channels: 1 as const }));
  const reads = engine.recognizeMany
    ? await engine.recognizeMany(imgs, opts)
    : await Promise.all(imgs.map((c) => engine.recognize(c, opts).catch(() => null)));
  let words = page.words;
  let changed = false;
  bands.forEach((b, i) => {
    // Speckle across the row reads as short unsure words ("FINE 49.70", "Total ate"): only sure numbers are taken;
    // the words stay as first read (at the OCR resolution they read well), all on the band's one line.
    const sure = reads[i]?.words.filter((w) => w.confidence >= RESURE && /\d/.test(w.text)) ?? [];
    const middle = (w: Word) => {
      const [x1, y1, x2, y2] = w.bounding_box;
      return levelY(page, (x1 + x2) / 2, (y1 + y2) / 2);
    };
    const band = words.filter((w) => middle(w) >= b.top && middle(w) <= b.bottom);
    const line = b.row.words[0]!.word.line;
    const fresh: Word[] = sure.map((w) => {
      const [x1, x2] = [w.bounding_box[0] / scale + left, w.bounding_box[2] / scale + left];
      const dy = b.top + slope * ((x1 + x2) / 2 - mid);
      return { ...w, line, bounding_box: [x1, w.bounding_box[1] / scale + dy, x2, w.bounding_box[3] / scale + dy] };
    });
    const kept = band.filter((w) => !/\d/.test(w.text)).map((w) => ({ ...w, line }));
    const merged = [...kept, ...fresh].sort((a, c) => a.bounding_box[0] - c.bounding_box[0]);
    const text = (ws: Word[]) => ws.map((w) => w.text).join(" ");
    if (!sure.length || (text(merged) === text(band) && band.every((w) => w.line === line))) return;
    const at = Math.max(0, words.indexOf(band[0]!));
    words = [...words.slice(0, at), ...merged, ...words.slice(at).filter((w) => !band.includes(w))];
    changed = true;
  });
  return changed ? { ...page, words, text: textOfWords(words), ocr_confidence: meanConfidence(words) } : null;
}

/**
 * The rows' bands: each row from its words' levelled tops to their bottoms (with a margin); rows OCR read apart on
 * one printed row (a label, and its amount as a line of its own) overlap and make one band.
 */
function bandsOf(page: Page, rows: Line[]): Array<{ row: Line; top: number; bottom: number }> {
  const out: Array<{ row: Line; top: number; bottom: number }> = [];
  const ranges = rows.map((row) => {
    const level = (w: (typeof row.words)[number], y: number) => levelY(page, (w.box[0] + w.box[2]) / 2, y);
    const top = minOf(row.words.map((w) => level(w, w.word.bounding_box[1])));
    const bottom = maxOf(row.words.map((w) => level(w, w.word.bounding_box[3])));
    return { row, top, bottom };
  });
  for (const r of ranges.sort((a, b) => a.top - b.top)) {
    const last = out[out.length - 1];
    const overlap = last ? Math.min(last.bottom, r.bottom) - Math.max(last.top, r.top) : 0;
    if (last && overlap > 0.5 * Math.min(last.bottom - last.top, r.bottom - r.top)) {
      last.top = Math.min(last.top, r.top);
      last.bottom = Math.max(last.bottom, r.bottom);
    } else out.push({ ...r });
  }
  return out.map((b) => {
    const pad = (b.bottom - b.top) * 0.3;
    return { row: b.row, top: b.top - pad, bottom: b.bottom + pad };
  });
}

/** A band's pixels, each column taken along the page's slope: a row of a skewed scan cut out level and whole. */
function cutBand(
  grey: GreyImage,
  page: Page,
  band: { top: number; bottom: number },
  [left, right]: [number, number],
  scale: number,
): GreyImage {
  const slope = levelY(page, 0, 0) - levelY(page, 1, 0);
  const mid = uprightSize(page)[0] / 2;
  const x0 = Math.floor(left * scale);
  const width = Math.max(1, Math.ceil((right - left) * scale));
  const height = Math.max(1, Math.ceil((band.bottom - band.top) * scale));
  const data = new Uint8Array(width * height).fill(255);
  for (let x = 0; x < width; x++) {
    const sx = x0 + x;
    if (sx < 0 || sx >= grey.width) continue;
    const y0 = Math.round((band.top + slope * (sx / scale - mid)) * scale);
    for (let y = 0; y < height; y++) {
      const sy = y0 + y;
      if (sy >= 0 && sy < grey.height) data[y * width + x] = grey.data[sy * grey.width + sx]!;
    }
  }
  return { data, width, height };
}
