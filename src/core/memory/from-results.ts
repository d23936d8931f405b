/**
 * Learning from a results file: a finished review (confirmed fields and classes) or a `memory` dataset transaction
 * with expected values. Pages are rebuilt from the results file's `pages[]` (words included), so nothing is
 * converted or OCR'd again.
 *
 * MUST learn only from what a person vouched for: a reviewed document teaches its confirmed fields (and its class
 * when confirmed or any field is); expected values teach as given. A document with nothing vouched for teaches nothing.
 */
import type { FieldValue, Page, ResultsFile } from "../model";
import type { ProjectSettings } from "../project";
import { pagesFromResults } from "../results";
import { learnMemory } from "./learn";
import type { Memory } from "../project/memory";

const hasWords = (pages: Page[]) => pages.some((p) => p.words.length > 0);

export function learnFromReview(
  results: ResultsFile,
  project: ProjectSettings,
  source: Memory["source"],
  now: Date,
): Memory[] {
  const pages = pagesFromResults(results);
  if (!hasWords(pages)) return [];
  const out: Memory[] = [];
  for (const doc of results.documents) {
    const values: Record<string, FieldValue> = {};
    for (const [id, f] of Object.entries(doc.fields)) if (f.is_confirmed === true) values[id] = f.value;
    if (!Object.keys(values).length) continue;
    const docPages = pages.filter((p) => doc.split.page_numbers.includes(p.page_number));
    const m = learnMemory({
      pages: docPages,
      class_id: doc.classification.class_id,
      values,
      project,
      source,
      now,
      transaction_id: results.transaction_id,
      document_id: doc.document_id,
    });
    if (Object.keys(m.fields).length) out.push(m);
  }
  return out;
}

/** Expected documents (the eval file shape) paired with the produced ones by order. */
export function learnFromExpected(
  results: ResultsFile,
  expected: Array<{ class_id?: string; fields: Record<string, FieldValue> }>,
  project: ProjectSettings,
  now: Date,
): Memory[] {
  const pages = pagesFromResults(results);
  if (!hasWords(pages)) return [];
  const out: Memory[] = [];
  results.documents.forEach((doc, i) => {
    const e = expected[i];
    if (!e || !Object.keys(e.fields).length) return;
    const classId =
      e.class_id && project.classes.some((c) => c.id === e.class_id) ? e.class_id : doc.classification.class_id;
    const docPages = pages.filter((p) => doc.split.page_numbers.includes(p.page_number));
    const m = learnMemory({
      pages: docPages,
      class_id: classId,
      values: e.fields,
      project,
      source: "memory",
      now,
      transaction_id: results.transaction_id,
      document_id: doc.document_id,
    });
    if (Object.keys(m.fields).length) out.push(m);
  });
  return out;
}
