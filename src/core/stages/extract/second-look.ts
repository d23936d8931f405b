/**
 * A targeted second look at a scan's amounts and dates. When a document read from OCR has sums that do not add up
 * (subtotal + tax ≠ total) or an invoice date that does not fit its due date (after it, or more than a few months
 * before), the words those fields were read from, and the numbers the first reading was unsure of, are read again
 * one by one: cut out of the page, enlarged three times, each as a single line, by the engine that read the page.
 * Small print of digits and separators reads better so than inside a page's layout (a thin space is no longer a
 * "7", a comma no longer lost). The fields are then extracted again from the words so read, and the new amounts
 * or dates are adopted only when they now add up or fit (all words read again, those read surer, or one of them
 * alone: a crop may read one word worse while it reads another right); otherwise the first reading stands.
 *
 * Costs nothing on a page whose sums and dates are consistent: no image is rendered, no word read.
 */
import type { FieldResult, Page, Word } from "../../model";
import type { OcrEngine } from "../../engines/ocr/types";
import { crop, toGrey, upscale, type GreyImage } from "../../imaging/grey";
import { rotateGrey } from "../../imaging/grey-thumbnail";
import { textOfWords, meanConfidence } from "../../engines/ocr/tsv";
import { pushAll } from "../../arrays";

/** Tesseract's page segmentation mode for "a single text line". */
const SINGLE_LINE = 7;
const ZOOM = 3;
/** Words read again per document at most (the fields' words first, then the least sure numbers). */
const MAX_WORDS = 16;
/** A number OCR was this unsure of is read again too. */
const UNSURE = 0.6;
/**
 * A word read again replaces the first reading only this sure of itself: a crop cutting a neighbour's ink reads as
 * garbage below 0.2, a right reading of a grainy number may be as low as 0.45 (whether it is kept is for the sums).
 */
const RESURE = 0.4;
/** Days an invoice's due date may follow its date. */
const TERM_DAYS = 120;
const AMOUNTS = ["subtotal_amount", "tax_amount", "total_amount"];
const DATES = ["invoice_date", "due_date"];

const num = (f: FieldResult | undefined) => (typeof f?.value === "number" ? f.value : null);

/** Subtotal + tax = total, all three read. */
export function sumsHold(fields: Record<string, FieldResult>): boolean {
  const [sub, tax, tot] = AMOUNTS.map((id) => num(fields[id]));
  return sub !== null && tax !== null && tot !== null && Math.abs(sub + tax - tot) <= 0.02;
}

/** Due date on or after the invoice date and at most TERM_DAYS after it; null when either is missing. */
export function datesFit(fields: Record<string, FieldResult>): boolean | null {
  const [date, due] = DATES.map((id) => fields[id]?.value);
  if (typeof date !== "string" || typeof due !== "string") return null;
  const days = (Date.parse(due) - Date.parse(date)) / 86_400_000;
  return days >= 0 && days <= TERM_DAYS;
}

/** Which groups of fields a second look is for: those read from OCR that do not add up or fit. */
function wanted(pages: Page[], fields: Record<string, FieldResult>): string[] {
  if (!pages.some((p) => p.text_source === "ocr")) return [];
  const out: string[] = [];
  // The total and at least one term read, from the page (an e-invoice's values are sure), and no sum.
  const read = AMOUNTS.filter((id) => num(fields[id]) !== null);
  const fromPage = read.some((id) => fields[id]!.confidence < 1);
  if (read.includes("total_amount") && read.length >= 2 && fromPage && !sumsHold(fields)) pushAll(out, AMOUNTS);
  const unsure = (fields.invoice_date?.confidence ?? 1) < UNSURE;
  if ((datesFit(fields) === false || (unsure && datesFit(fields))) && DATES.every((id) => fields[id]!.confidence < 1))
    pushAll(out, DATES);
  return out;
}

/**
 * `fields` with the amounts or dates of a second look when they add up or fit where the first did not; `extract`
 * extracts the document's fields from pages. Pages whose words were read again keep the new words when adopted.
 */
export async function secondLook(
  pages: Page[],
  fields: Record<string, FieldResult>,
  engine: OcrEngine,
  extract: (pages: Page[]) => Record<string, FieldResult>,
): Promise<Record<string, FieldResult>> {
  const ids = wanted(pages, fields);
  if (!ids.length) return fields;
  const targets = wordsToRead(pages, fields, ids);
  const replaced = new Map<Word, Word>();
  for (const [page, words] of targets) {
    const read = await readWords(page, words, engine).catch(() => null);
    for (const [from, to] of read ?? []) replaced.set(from, to);
  }
  // All the words read again; those read surer than at first; each alone: the first that adds up or fits is kept
  // (a crop may read one word worse while it reads another right).
  const all = [...replaced];
  const tries = [all, all.filter(([from, to]) => to.confidence >= from.confidence), ...all.map((r) => [r])];
  for (const subset of tries.filter((t, i) => t.length && (i < 2 || all.length > 1))) {
    const swap = new Map(subset);
    const looked = pages.map((p) => (p.words.some((w) => swap.has(w)) ? withWords(p, swap) : p));
    const next = extract(looked);
    const adopt = [
      ...(ids.includes("total_amount") && sumsHold(next) ? AMOUNTS : []),
      ...(ids.includes("invoice_date") && datesFit(next) && surer(next, fields) ? DATES : []),
    ].filter((id) => JSON.stringify(next[id]?.value) !== JSON.stringify(fields[id]?.value));
    if (!adopt.length) continue;
    for (const [i, p] of pages.entries()) {
      const { words, text, ocr_confidence } = looked[i]!;
      if (looked[i] !== p) Object.assign(p, { words, text, ocr_confidence });
    }
    const out = { ...fields };
    for (const id of adopt)
      out[id] = { ...next[id]!, reasoning: `${next[id]!.reasoning}; read again enlarged, word by word (second look)` };
    return out;
  }
  return fields;
}

/** Dates that did not fit now do; dates that fitted were read unsure, and are read surer now. */
function surer(next: Record<string, FieldResult>, first: Record<string, FieldResult>): boolean {
  return !datesFit(first) || next.invoice_date!.confidence > first.invoice_date!.confidence;
}

/** Per OCR page, the words to read again: those of the fields' values, then numbers OCR was unsure of. */
function wordsToRead(pages: Page[], fields: Record<string, FieldResult>, ids: string[]): Map<Page, Word[]> {
  const out = new Map<Page, Word[]>();
  let count = 0;
  const take = (page: Page, w: Word) => {
    const list = out.get(page) ?? [];
    if (count >= MAX_WORDS || list.includes(w)) return;
    list.push(w);
    out.set(page, list);
    count++;
  };
  for (const id of ids)
    for (const b of fields[id]?.bounding_boxes ?? []) {
      const page = pages.find((p) => p.page_number === b.page_index && p.text_source === "ocr");
      if (!page) continue;
      for (const w of page.words) if (/\d/.test(w.text) && inside(w.bounding_box, b.coordinates)) take(page, w);
    }
  for (const page of pages.filter((p) => p.text_source === "ocr"))
    for (const w of [...page.words].sort((a, b) => a.confidence - b.confidence))
      if (w.confidence < UNSURE && (w.text.match(/\d/g)?.length ?? 0) >= 3) take(page, w);
  return out;
}

const inside = (w: number[], b: number[]) =>
  w[0]! >= b[0]! - 2 && w[1]! >= b[1]! - 2 && w[2]! <= b[2]! + 2 && w[3]! <= b[3]! + 2;

/** The page's words with `words` read again, each alone on an enlarged crop; a word read as nothing stays. */
async function readWords(page: Page, words: Word[], engine: OcrEngine): Promise<Map<Word, Word> | null> {
  if (!page.render) return null;
  const grey = toGrey(await page.render());
  const scale = grey.width / page.image_transform.rasterized_width;
  const crops = words.map((w) => cropWord(grey, w, scale, page.image_transform.rotation ?? 0));
  const opts = { psm: SINGLE_LINE };
  const reads = engine.recognizeMany
    ? await engine.recognizeMany(crops, opts)
    : await Promise.all(crops.map((c) => engine.recognize(c, opts).catch(() => null)));
  const replaced = new Map<Word, Word>();
  words.forEach((w, i) => {
    const read = reads[i];
    const text = read?.words
      .map((x) => x.text)
      .join(" ")
      .trim();
    if (!read || !text || !/\d/.test(text) || text === w.text) return;
    // A crop the engine could not make sense of (a box cutting a neighbour's ink) leaves the first reading.
    if ((read.confidence ?? 0) < RESURE) return;
    replaced.set(w, { ...w, text: text.replace(/\s+/g, " "), confidence: read.confidence ?? w.confidence });
  });
  return replaced;
}

/** The word's box with a margin, upright, enlarged. */
function cropWord(grey: GreyImage, w: Word, scale: number, rotation: number) {
  const [x1, y1, x2, y2] = w.bounding_box.map((v) => v * scale) as [number, number, number, number];
  const pad = Math.round(Math.min(x2 - x1, y2 - y1) * 0.35) + 2;
  const [left, top] = [Math.max(0, Math.floor(x1 - pad)), Math.max(0, Math.floor(y1 - pad))];
  const right = Math.min(grey.width, Math.ceil(x2 + pad));
  const bottom = Math.min(grey.height, Math.ceil(y2 + pad));
  let img = crop(grey, left, top, Math.max(1, right - left), Math.max(1, bottom - top));
  const turn = (((rotation % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  if (turn) img = rotateGrey(img, turn);
  return { ...upscale(img, ZOOM), channels: 1 as const };
}

/** A page with some words read otherwise (their boxes unchanged). */
function withWords(page: Page, swap: Map<Word, Word>): Page {
  const words = page.words.map((w) => swap.get(w) ?? w);
  return { ...page, words, text: textOfWords(words), ocr_confidence: meanConfidence(words) };
}
