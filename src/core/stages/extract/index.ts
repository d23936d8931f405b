/**
 * Extraction stage: the fields of a document's class, read from its pages (and from an embedded e-invoice XML).
 *
 * Contracts:
 * - MUST return one FieldResult per field configured for `classId` (value null and confidence 0 when not found).
 * - A value read from a page MUST carry `bounding_boxes` = the union box of the words it came from, one box per
 *   page, with `page_index` = that page's 1-based transaction page number (`page_number`).
 * - Values are normalised: ISO dates, amounts as numbers (negative for classes with `amount_sign: negative`),
 *   ISO 4217 currency codes, IBANs compact and checksum-valid.
 * - When the best amounts break a `sum_equals` rule of the project, the best combination of candidates that adds
 *   up is taken instead (extract/reconcile.ts).
 * - An embedded ZUGFeRD (1.0, 2.x)/Factur-X/XRechnung XML (CII or UBL) is read first; its values have confidence
 *   1.0 and the boxes of the words printing them on the page (none when the page does not print them, see
 *   extract/locate.ts). Fields the XML lacks are read from the pages.
 * - MUST NOT throw on odd pages (no words, no lines); it returns empty fields instead.
 */
import { withoutSpecks } from "../../extract/specks";
import { PageMemo } from "../../page-memo";
import { wordCountOf } from "../../convert/page-words";
import type { FieldResult, FieldValue, Page } from "../../model";
import type { FieldSettings, ProjectSettings } from "../../project";
import { foreignLabelsOf, summaryLabelsOf } from "./amount-labels";
import { boxesOf, pageLines, type Line } from "../../extract/lines";
import { locateValue } from "../../extract/locate";
import { clearDateMemo, type DateOrder, inferDateOrder } from "../../extract/normalize";
import { fieldCandidates, toFieldResult } from "../../extract/fields";
import type { Candidate } from "../../extract/candidate";
import { extractTable, tableHeaderZone } from "../../extract/tables";
import { headerlessTable } from "../../extract/headerless";
import { extractCurrencies } from "../../extract/currency";
import { withUkPrefix } from "../../extract/uk-vat";
import { readEInvoice, type EInvoice } from "../../extract/einvoice";
import { kindOfTypeCode } from "../../classify/type-codes";
import { clearAmountMemo } from "../../extract/values";
import { timeStageSync } from "../../timing.ts";
import { paced } from "../../extract/gc-pace";
import { settleSums } from "../../extract/tendered";
import { settleReceipt } from "../../extract/receipt";

export interface ExtractOptions {
  attachments?: Array<{ filename: string; data: Uint8Array }>;
}

const EN_WORDS = /\b(the|and|for|your|of|to|this|total|amount|invoice|date|due|bill|please|thank)\b/gi;
const OTHER_WORDS = /\b(der|die|und|het|een|van|le|la|les|des|du|et|il|di|el|los|und|für|voor|pour|nicht|niet)\b/gi;

/** US-English cue for the numeric date order: dollars and English words, no euro. */
function looksUsEnglish(text: string): boolean {
  // "S$", "HK$", "A$" are other dollars.
  if (!/(?<![\p{L}])\$/u.test(text) || /€|\bEUR\b/.test(text)) return false;
  return (text.match(EN_WORDS)?.length ?? 0) > 2 * (text.match(OTHER_WORDS)?.length ?? 0);
}

function fromXml(
  field: FieldSettings,
  value: FieldValue,
  e: EInvoice,
  lines: Line[],
  dateOrder: DateOrder,
): FieldResult {
  // The value's print on the page, when there is one, gives it the boxes a value read from the page would have.
  const span = locateValue(field.type, value, lines, dateOrder);
  return {
    name: field.name,
    value,
    confidence: 1,
    bounding_boxes: span ? boxesOf([span]) : [],
    reasoning: `read from the embedded ${e.syntax} e-invoice XML "${e.filename}"${span ? `, printed on page ${span.line.page.page_number}, line ${span.line.index + 1}` : ""}`,
    review_required: false,
    is_confirmed: null,
  };
}

function negate(value: FieldValue): FieldValue {
  if (typeof value === "number") return -Math.abs(value);
  if (Array.isArray(value))
    return value.map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === "quantity" ? v : negate(v)])),
    );
  return value;
}

/** The pages' rows: all words on one baseline (OCR splits a table into column blocks); null without OCR pages. */
function rowsOf(pages: Page[]): Line[] | null {
  if (!pages.some((p) => p.text_source === "ocr")) return null;
  return pages.flatMap((p) => (p.text_source === "ocr" ? pageLines(p, true) : pageLines(p)));
}

/**
 * A table read from the lines as given and, on OCR pages, from the page's rows; the reading with more rows wins,
 * the lines as given on a tie.
 */
function bestTable(
  field: FieldSettings,
  pages: Page[],
  lines: Line[],
  dateOrder: DateOrder,
  threshold: number,
  summaryLabels: string[],
): FieldResult {
  const table = extractTable(field, lines, dateOrder, threshold, summaryLabels);
  const rows = rowsOf(pages);
  if (!rows) return table;
  const byRow = extractTable(field, rows, dateOrder, threshold, summaryLabels);
  const count = (r: FieldResult) => (Array.isArray(r.value) ? r.value.length : 0);
  return count(byRow) > count(table)
    ? { ...byRow, reasoning: `${byRow.reasoning}, rows read across OCR text blocks` }
    : table;
}

const xmlHas = (e: EInvoice | null, id: string) => e?.fields[id] !== undefined && e?.fields[id] !== null;

/**
 * Line items read from the page checked against the document's sums: rows that add up to none of them (a row
 * missed, an amount misread) are sent to review, whatever the OCR confidence says.
 */
function checkedAgainstSums(table: FieldResult, targets: number[]): FieldResult {
  if (!Array.isArray(table.value) || !table.value.length || !targets.length) return table;
  const amounts = table.value.map((r) => r.amount).filter((v): v is number => typeof v === "number");
  if (!amounts.length) return table;
  const sum = Math.round(amounts.reduce((a, b) => a + b, 0) * 100) / 100;
  if (targets.some((t) => Math.abs(Math.abs(t) - Math.abs(sum)) <= 0.02)) {
    // A headerless table was taken for adding up; it says so already.
    return table.reasoning.includes("add up to the document's sums")
      ? table
      : { ...table, reasoning: `${table.reasoning}; the amounts add up to the document's sums (${sum})` };
  }
  return {
    ...table,
    review_required: true,
    reasoning: `${table.reasoning}; the amounts add up to ${sum}, none of the document's sums (${targets.map((t) => Math.round(t * 100) / 100).join(", ")})`,
  };
}

/** Extracts every field of `classId` from `pages`; see the module contract. */
export function extractFields(
  pages: Page[],
  classId: string,
  project: ProjectSettings,
  opts: ExtractOptions = {},
): Record<string, FieldResult> {
  // Handed over: the caller owns these fields from now on.
  const ahead = opts.attachments?.length ? undefined : readAhead.take(pages, [classId, project]);
  return (
    ahead ??
    timeStageSync("extract", () => {
      const long = wordCount(pages) >= LONG_DOCUMENT_WORDS;
      const fields = paced(long, () => extract(pages, classId, project, opts));
      // The value memos hold texts of this document's lines: not kept for the next document to clear.
      clearDateMemo();
      clearAmountMemo();
      if (long) Bun.gc(true);
      return fields;
    })
  );
}

/**
 * A document this long (some 250 pages of prose, over a thousand of invoices) holds all its lines while it is
 * extracted (~150 MB for 999 pages of prose), and JavaScriptCore lets the heap grow to twice what was alive at its
 * last full collection. So its extraction runs paced (extract/gc-pace.ts: a young collection every few thousand
 * line scans; on the 999-page document 2,000 prose pages make, the extraction's peak went from ~700 to ~550 MB of
 * RSS for ~0.2 CPU-s), and when it ends its lines are garbage in a heap allowed to be twice their size, which the
 * rest of the run would fill before collecting (+250 MB of RSS after that document): one full collection (~50 ms)
 * resets the limit to what the run keeps. Shorter documents never pay for either.
 */
export const LONG_DOCUMENT_WORDS = 100_000;
const wordCount = (pages: Page[]) => pages.reduce((n, p) => n + wordCountOf(p), 0);

/**
 * Extracts a document (one page, or the pages of a longer one) ahead of the Extract stage: core/stages/convert/read-ahead.ts
 * reads pages while the rest of the file is still being converted. The next extractFields call for the same pages,
 * class and project, with the same page content and no attachments, gets these fields instead of extracting again;
 * any other call extracts anew (core/page-memo.ts).
 */
export function extractAhead(pages: Page[], classId: string, project: ProjectSettings): void {
  const deep = pages[0]!.page_number >= LONG_TRANSACTION_PAGES;
  const fields = timeStageSync("extract", () => paced(deep, () => extract(pages, classId, project, {})));
  readAhead.put(pages, [classId, project], fields);
}

/**
 * Documents whose fields extracted ahead stay in memory; older ones' go to disk until Extract takes them (PageMemo):
 * what converting a long file holds of them no longer grows with its length (~7 KB of objects a one-page invoice,
 * most of it reasoning texts). Runs of up to ~600 invoice pages (the bench's 500) never touch the disk.
 */
export const EXTRACTED_AHEAD_RESIDENT = 512;

const readAhead = new PageMemo<Record<string, FieldResult>>(EXTRACTED_AHEAD_RESIDENT);

/** Lets go of fields extracted ahead for runs of these pages and never taken (the splitter cut them otherwise). */
export function forgetExtractedAhead(pages: Iterable<Page>): void {
  readAhead.forget(pages);
}

/** Documents extracted ahead and neither taken nor forgotten (tests count them). */
export function extractedAheadHeld(): number {
  return readAhead.size;
}

/** Documents extracted ahead whose fields are in memory now, and those written to disk so far (tests count them). */
export function extractedAheadResident(): { resident: number; spilled: number } {
  return { resident: readAhead.residentCount, spilled: readAhead.spilled };
}

/**
 * From this transaction page on, documents extracted ahead run paced (extract/gc-pace.ts). Reading ahead happens
 * while pdf.js converts the rest of the file, when a long file's pages, the open pdf.js document and the young
 * garbage of classifying and extracting all add up: on 2,000 prose pages the conversion phase then peaked at
 * 580-630 MB of RSS, and paced young collections from page 500 on took 30-100 MB off it (noisy, loaded machine)
 * for no measurable CPU. Shorter transactions (the bench's 500 pages) never pay for it.
 */
export const LONG_TRANSACTION_PAGES = 500;

function extract(
  pages: Page[],
  classId: string,
  project: ProjectSettings,
  opts: ExtractOptions,
): Record<string, FieldResult> {
  clearDateMemo();
  clearAmountMemo();
  const fields = project.fields[classId] ?? [];
  const threshold = project.review_thresholds.field;
  const lines: Line[] = pages.flatMap((p) => pageLines(p));
  const allText = lines.map((l) => l.text).join("\n");
  const dateOrder = inferDateOrder([allText], project.locale, () => looksUsEnglish(allText));
  const tableHeaders = new Set(
    fields.filter((f) => f.type === "table").flatMap((f) => [...tableHeaderZone(f, lines, dateOrder)]),
  );
  const ctx = { dateOrder, tableHeaders };
  const einvoice = opts.attachments?.length ? readEInvoice(opts.attachments) : null;
  const negative =
    project.classes.find((c) => c.id === classId)?.amount_sign === "negative" ||
    kindOfTypeCode(einvoice?.type_code) === "credit_note";

  const summaryLabels = summaryLabelsOf(fields);
  const out: Record<string, FieldResult> = {};
  const best: Record<string, Candidate | undefined> = {};
  const candidates: Record<string, Candidate[]> = {};
  const deferred: FieldSettings[] = [];
  const fromPage: FieldSettings[] = [];
  for (const field of fields) {
    const xmlValue = einvoice?.fields[field.id];
    if (xmlValue !== undefined && xmlValue !== null) {
      out[field.id] = fromXml(
        field,
        field.type === "amount" && negative ? negate(xmlValue) : xmlValue,
        einvoice!,
        lines,
        dateOrder,
      );
    } else if (field.hints.recognizer === "currency") {
      deferred.push(field); // needs the total's position first
    } else if (field.type === "table") {
      out[field.id] = bestTable(field, pages, lines, ctx.dateOrder, threshold, summaryLabels);
      if (negative) out[field.id]!.value = negate(out[field.id]!.value);
    } else {
      const foreignLabels = field.type === "amount" ? foreignLabelsOf(fields, field) : undefined;
      candidates[field.id] = fieldCandidates(field, lines, { ...ctx, values: field.values, foreignLabels });
      best[field.id] = candidates[field.id]![0];
      fromPage.push(field);
    }
  }
  settleSums(project, classId, candidates, best, lines, dateOrder);
  if (classId === "receipt") settleReceipt(best, lines, dateOrder);
  // The merchant found by a receipt's own rules loses a speck after its legal form ("… KG.") as other parties do.
  const vendor = best.vendor_name?.match;
  if (typeof vendor?.value === "string") vendor.value = withoutSpecks(vendor.value);
  for (const field of fromPage) {
    out[field.id] = toFieldResult(field, best[field.id], threshold);
    if (negative && field.type === "amount") out[field.id]!.value = negate(out[field.id]!.value);
  }
  withUkPrefix(fields, out, lines);
  // The document's sums the line items should add up to: the subtotal, total − tax, or (gross prices) the total.
  const num = (id: string) => (typeof out[id]?.value === "number" ? (out[id]!.value as number) : null);
  const [sub, tax, tot] = [num("subtotal_amount"), num("tax_amount"), num("total_amount")];
  const targets = [sub, tot !== null && tax !== null ? tot - tax : null, tot].filter(
    (t): t is number => t !== null && t !== 0,
  );
  for (const field of fields) {
    if (field.type !== "table" || !out[field.id] || xmlHas(einvoice, field.id)) continue;
    // A table whose header was not read: rows whose amounts add up to one of the sums.
    if (out[field.id]!.value === null) {
      const found = headerlessTable(field, rowsOf(pages) ?? lines, dateOrder, threshold, summaryLabels, targets);
      if (found) out[field.id] = negative ? { ...found, value: negate(found.value) } : found;
    }
    out[field.id] = checkedAgainstSums(out[field.id]!, targets);
  }
  extractCurrencies(deferred, out, best, lines, threshold);
  // Keep the configured field order in the results.
  return Object.fromEntries(fields.map((f) => [f.id, out[f.id]!]));
}
