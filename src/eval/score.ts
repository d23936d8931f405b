/**
 * Scoring produced documents against expected ones: per-field accuracy, a per-class confusion matrix, split
 * boundary F1, and calibration (accuracy by confidence bucket). Pure: no files, no pipeline.
 *
 * Contracts:
 * - Comparison follows the corpora conventions (docs/eval.md): amounts equal within 0.005, dates as ISO
 *   `YYYY-MM-DD`, other values case-folded with whitespace and a leading `#`/`No.` removed. Table fields are not
 *   scored (a line-item table has no single right/wrong).
 * - A field counts only where the expected document gives it (null included: then the right answer is "nothing").
 * - Boundaries are scored per file: the page numbers where a document starts, the first page excluded; F1 over
 *   all files is 2·tp / (2·tp + fp + fn), and 1 when neither side has a boundary anywhere.
 * - Calibration buckets are half-open [lo, hi), the last one closed; every scored field value falls in one.
 * - An expected document may give its whole `text`: then the character error rate of the produced document's text
 *   (its pages' text, page by page) is scored (src/eval/cer.ts); a missing document reads as empty text.
 */
import type { FieldValue } from "../core/model";
import { minOf } from "../core/arrays";
import { scoreTexts, type TextScore } from "./cer";

export interface ExpectedDocument {
  class_id?: string;
  /** 1-based page numbers of the document inside its file; omitted for one-document files. */
  page_numbers?: number[];
  fields: Record<string, FieldValue>;
  /** The document's true text, for the character error rate (OCR corpora). */
  text?: string;
}

export interface ProducedField {
  value: FieldValue;
  confidence: number;
  type?: string;
}

export interface ProducedDocument {
  class_id: string;
  page_numbers: number[];
  fields: Record<string, ProducedField>;
  /** The text read from the document's pages, joined by newlines. */
  text?: string;
}

export interface FileOutcome {
  file: string;
  expected: ExpectedDocument[];
  produced: ProducedDocument[];
  /** Set when the file could not be processed at all (every expected field then counts as wrong). */
  error?: string;
}

export interface FieldRow {
  field: string;
  correct: number;
  total: number;
  accuracy: number;
  misses: Array<{ file: string; expected: FieldValue; got: FieldValue | undefined }>;
}
export interface Bucket {
  lo: number;
  hi: number;
  total: number;
  correct: number;
  accuracy: number | null;
  mean_confidence: number | null;
}
export interface BoundaryScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface EvalReport {
  files: number;
  documents: number;
  errors: Array<{ file: string; error: string }>;
  fields: FieldRow[];
  /** All scored (document, field) pairs together. */
  overall: { correct: number; total: number; accuracy: number };
  classes: { labels: string[]; matrix: number[][]; correct: number; total: number; accuracy: number };
  split: BoundaryScore;
  /** Character error rate where expected texts are given (`documents` 0 and `cer` null otherwise). */
  text: TextScore;
  calibration: {
    buckets: Bucket[];
    review_threshold: number;
    above: { total: number; correct: number; error_rate: number | null };
    below: { total: number; correct: number; error_rate: number | null };
  };
}

export const BUCKET_EDGES = [0, 0.5, 0.7, 0.8, 0.9, 1];

const ident = (v: unknown) =>
  String(v)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/^(#|no\.)/, "");

/** Whether `got` is the expected value, by the conventions of the module contract. */
export function sameValue(expected: FieldValue, got: FieldValue | undefined, type?: string): boolean {
  if (expected === null || expected === undefined || expected === "")
    return got === null || got === undefined || got === "";
  if (got === null || got === undefined) return false;
  if (typeof expected === "number" || type === "amount" || type === "number") {
    const [e, g] = [Number(expected), typeof got === "number" ? got : Number(String(got).replace(/[^\d.-]/g, ""))];
    return Number.isFinite(e) && Number.isFinite(g) && Math.abs(e - g) <= 0.005;
  }
  if (typeof expected === "boolean") return got === expected;
  if (type === "date" || /^\d{4}-\d{2}-\d{2}/.test(String(expected)))
    return String(got).slice(0, 10) === String(expected).slice(0, 10);
  return ident(expected) === ident(got);
}

/** Pairs each expected document with the produced one sharing most pages (by order when pages are not given). */
export function pairDocuments(
  expected: ExpectedDocument[],
  produced: ProducedDocument[],
): Array<ProducedDocument | undefined> {
  const used = new Set<number>();
  return expected.map((e, i) => {
    if (!e.page_numbers?.length) {
      if (i < produced.length && !used.has(i)) {
        used.add(i);
        return produced[i];
      }
      return undefined;
    }
    let best = -1,
      overlap = 0;
    produced.forEach((p, j) => {
      if (used.has(j)) return;
      const n = p.page_numbers.filter((x) => e.page_numbers!.includes(x)).length;
      if (n > overlap) [best, overlap] = [j, n];
    });
    if (best < 0) return undefined;
    used.add(best);
    return produced[best];
  });
}

const starts = (pages: number[][]) => new Set(pages.map((p) => minOf(p)).filter((n) => Number.isFinite(n) && n > 1));

/** The confusion matrix of expected → produced class ids, and the share on its diagonal. */
function classReport(classPairs: Array<[string, string]>): EvalReport["classes"] {
  const labels = [...new Set(classPairs.flat())].sort();
  const matrix = labels.map(() => labels.map(() => 0));
  for (const [e, g] of classPairs) matrix[labels.indexOf(e)]![labels.indexOf(g)]!++;
  const correct = classPairs.filter(([e, g]) => e === g).length;
  return {
    labels,
    matrix,
    correct,
    total: classPairs.length,
    accuracy: classPairs.length ? correct / classPairs.length : 1,
  };
}

/** Precision, recall and F1 of the document starts found. */
function splitReport(split: { tp: number; fp: number; fn: number }): EvalReport["split"] {
  const denom = 2 * split.tp + split.fp + split.fn;
  return {
    ...split,
    precision: split.tp + split.fp ? split.tp / (split.tp + split.fp) : 1,
    recall: split.tp + split.fn ? split.tp / (split.tp + split.fn) : 1,
    f1: denom ? (2 * split.tp) / denom : 1,
  };
}

export function scoreOutcomes(outcomes: FileOutcome[], reviewThreshold: number): EvalReport {
  const rows = new Map<string, FieldRow>();
  const buckets: Bucket[] = BUCKET_EDGES.slice(0, -1).map((lo, i) => ({
    lo,
    hi: BUCKET_EDGES[i + 1]!,
    total: 0,
    correct: 0,
    accuracy: null,
    mean_confidence: null,
  }));
  const confSums = buckets.map(() => 0);
  const above = { total: 0, correct: 0, error_rate: null as number | null };
  const below = { total: 0, correct: 0, error_rate: null as number | null };
  const classPairs: Array<[string, string]> = [];
  const split = { tp: 0, fp: 0, fn: 0 };
  const texts: Array<{ file: string; expected: string; got: string | undefined }> = [];
  let documents = 0;
  for (const o of outcomes) {
    documents += o.expected.length;
    const paired = pairDocuments(o.expected, o.produced);
    o.expected.forEach((e, i) => {
      const got = paired[i];
      if (typeof e.text === "string") texts.push({ file: o.file, expected: e.text, got: got?.text });
      if (e.class_id) classPairs.push([e.class_id, got?.class_id ?? "(none)"]);
      for (const [field, value] of Object.entries(e.fields)) {
        const produced = got?.fields[field];
        if (produced?.type === "table" || Array.isArray(value)) continue;
        const ok = sameValue(value, produced?.value, produced?.type);
        const row = rows.get(field) ?? { field, correct: 0, total: 0, accuracy: 0, misses: [] };
        row.total++;
        if (ok) row.correct++;
        else row.misses.push({ file: o.file, expected: value, got: produced?.value });
        rows.set(field, row);
        // Calibration looks at values the extractor offered; "not found" carries no confidence claim.
        if (!produced || produced.value === null) continue;
        const c = produced.confidence;
        const at = buckets.findIndex((b) => c >= b.lo && c < b.hi);
        const k = at < 0 ? buckets.length - 1 : at;
        buckets[k]!.total++;
        buckets[k]!.correct += ok ? 1 : 0;
        confSums[k]! += c;
        const side = c >= reviewThreshold ? above : below;
        side.total++;
        side.correct += ok ? 1 : 0;
      }
    });
    const expectedStarts = starts(o.expected.length > 1 ? o.expected.map((e) => e.page_numbers ?? []) : []);
    const producedStarts = starts(o.produced.map((p) => p.page_numbers));
    for (const s of producedStarts) expectedStarts.has(s) ? split.tp++ : split.fp++;
    for (const s of expectedStarts) if (!producedStarts.has(s)) split.fn++;
  }
  buckets.forEach((b, i) => {
    b.accuracy = b.total ? b.correct / b.total : null;
    b.mean_confidence = b.total ? confSums[i]! / b.total : null;
  });
  for (const side of [above, below]) side.error_rate = side.total ? 1 - side.correct / side.total : null;
  const fields = [...rows.values()].map((r) => ({ ...r, accuracy: r.total ? r.correct / r.total : 0 }));
  const correct = fields.reduce((s, r) => s + r.correct, 0),
    total = fields.reduce((s, r) => s + r.total, 0);
  return {
    files: outcomes.length,
    documents,
    errors: outcomes.filter((o) => o.error).map((o) => ({ file: o.file, error: o.error! })),
    fields,
    overall: { correct, total, accuracy: total ? correct / total : 0 },
    classes: classReport(classPairs),
    split: splitReport(split),
    text: scoreTexts(texts),
    calibration: { buckets, review_threshold: reviewThreshold, above, below },
  };
}
