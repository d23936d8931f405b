/**
 * Split corrections of a review: move a boundary, merge a document with the next one, split one in two.
 *
 * Contracts:
 * - Documents keep their order; `document_index` is renumbered 0..n-1 after every correction.
 * - A document whose pages changed is classified and extracted again from the stored pages (their words), exactly
 *   as the pipeline does, and its split is marked as set by a person (`reason: "review"`, confidence 1.0).
 *   Classification and fields a person confirmed on an untouched document stay as they are.
 * - A correction that would leave a document without pages is refused (`invalid_input`).
 */
import { DocprocError } from "../../errors";
import type { DocumentResult, FieldResult, Page, ResultsFile } from "../../model";
import type { ProjectSettings } from "../../project";
import { classifyDocument } from "../classify";
import { extractFields } from "../extract";
import { pagesFromResults } from "../../results";
import type { ReviewEntry } from "./schema";

function pagesOf(results: ResultsFile, numbers: number[]): Page[] {
  const all = new Map(pagesFromResults(results).map((p) => [p.page_number, p]));
  return numbers.map((n) => all.get(n)).filter((p): p is Page => p !== undefined);
}

/** The fields of `doc`'s class read again from its pages. */
export function reextractFields(
  results: ResultsFile,
  doc: DocumentResult,
  project: ProjectSettings,
): Record<string, FieldResult> {
  return extractFields(pagesOf(results, doc.split.page_numbers), doc.classification.class_id, project);
}

/** Classifies and extracts a document again after its pages changed. */
function rebuild(
  results: ResultsFile,
  doc: DocumentResult,
  pageNumbers: number[],
  project: ProjectSettings,
  entry: ReviewEntry,
): void {
  entry.changes.push({
    path: `documents.${doc.document_id}.split.page_numbers`,
    before: doc.split.page_numbers,
    after: pageNumbers,
  });
  const pages = pagesOf(results, pageNumbers);
  const classification = classifyDocument(pages, project);
  doc.classification = classification;
  doc.document_type = classification.type;
  doc.classification_confidence = classification.confidence;
  doc.fields = extractFields(pages, classification.class_id, project);
  const sourceIndexes = new Set<number>();
  for (const p of pages) sourceIndexes.add(p.source_file_index);
  doc.split = {
    ...doc.split,
    page_numbers: pageNumbers,
    confidence: 1,
    reason: "review",
    review_required: false,
    source_file_indexes: [...sourceIndexes],
  };
}

function renumber(results: ResultsFile): void {
  results.documents.forEach((d, i) => (d.document_index = i));
}

function indexOf(results: ResultsFile, doc: DocumentResult): number {
  return results.documents.findIndex((d) => d.document_id === doc.document_id);
}

/** `doc` starts at `firstPage`: pages move between it and the document before it. */
export function moveBoundary(
  results: ResultsFile,
  doc: DocumentResult,
  firstPage: number,
  project: ProjectSettings,
  entry: ReviewEntry,
): DocumentResult[] {
  const i = indexOf(results, doc);
  const prev = results.documents[i - 1];
  if (!prev)
    throw new DocprocError(
      "invalid_input",
      "move_boundary: the first document has no boundary before it; use split_document",
    );
  const pages = [...prev.split.page_numbers, ...doc.split.page_numbers].sort((a, b) => a - b);
  if (!pages.includes(firstPage))
    throw new DocprocError(
      "invalid_input",
      `first_page: page ${firstPage} is not in this document or the one before it`,
    );
  const before = pages.filter((n) => n < firstPage);
  const after = pages.filter((n) => n >= firstPage);
  if (before.length === 0)
    throw new DocprocError(
      "invalid_input",
      "first_page: the document before would have no pages left; use merge_documents",
    );
  entry.document_id = doc.document_id;
  rebuild(results, prev, before, project, entry);
  rebuild(results, doc, after, project, entry);
  return [prev, doc];
}

/** Merges `doc` with the document right after it; the merged one keeps `doc`'s id. */
export function mergeDocuments(
  results: ResultsFile,
  doc: DocumentResult,
  project: ProjectSettings,
  entry: ReviewEntry,
): DocumentResult[] {
  const i = indexOf(results, doc);
  const next = results.documents[i + 1];
  if (!next)
    throw new DocprocError(
      "invalid_input",
      "merge_documents: the last document has no document after it to merge with",
    );
  entry.document_id = doc.document_id;
  entry.changes.push({ path: `documents.${next.document_id}`, before: "document", after: null });
  results.documents.splice(i + 1, 1);
  rebuild(
    results,
    doc,
    [...doc.split.page_numbers, ...next.split.page_numbers].sort((a, b) => a - b),
    project,
    entry,
  );
  renumber(results);
  return [doc];
}

/** Splits `doc` so that `atPage` starts a new document (a new id, placed right after it). */
export function splitDocument(
  results: ResultsFile,
  doc: DocumentResult,
  atPage: number,
  project: ProjectSettings,
  entry: ReviewEntry,
): DocumentResult[] {
  const pages = doc.split.page_numbers;
  const head = pages.filter((n) => n < atPage);
  const tail = pages.filter((n) => n >= atPage);
  if (!pages.includes(atPage) || head.length === 0) {
    throw new DocprocError(
      "invalid_input",
      `at_page: page ${atPage} must be a page of the document other than its first (${pages.join(", ")})`,
    );
  }
  entry.document_id = doc.document_id;
  const created: DocumentResult = structuredClone(doc);
  created.document_id = crypto.randomUUID();
  entry.changes.push({ path: `documents.${created.document_id}`, before: null, after: "document" });
  results.documents.splice(indexOf(results, doc) + 1, 0, created);
  rebuild(results, doc, head, project, entry);
  rebuild(results, created, tail, project, entry);
  renumber(results);
  return [doc, created];
}
