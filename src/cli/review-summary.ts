/**
 * What the `process` summary says about each file's documents (issue: the CLI tells the truth): the document types,
 * the key fields found (the class's required fields, else the first values found) and the fields a person should
 * check. A file whose documents need review, or whose validation warns, gets the status `review` instead of
 * `success` (it still counts as processed: exit code 0).
 */
import type { FieldValue, ResultsFile } from "../core/model";
import type { ProjectSettings } from "../core/project";

export interface FoundDocument {
  document_type: string;
  /** Field id → value, for the key fields that have a value. */
  key_fields: Record<string, FieldValue>;
  /** Names of the fields (and "classification") flagged for review and not confirmed. */
  needs_review: string[];
}

export interface ReviewSummary {
  found: FoundDocument[];
  /** Total of `needs_review` entries over the documents. */
  needs_review: number;
  validation: "success" | "warning" | "error";
}

const scalar = (v: FieldValue): boolean => v !== null && typeof v !== "object";

export function reviewSummaryOf(results: ResultsFile, project: ProjectSettings): ReviewSummary {
  const found = results.documents.map((d): FoundDocument => {
    const required = (project.fields[d.classification.class_id] ?? []).filter((f) => f.required).map((f) => f.id);
    const withValue = Object.entries(d.fields).filter(([, f]) => scalar(f.value));
    const keys = required.length ? withValue.filter(([id]) => required.includes(id)) : withValue.slice(0, 3);
    const needs = Object.values(d.fields)
      .filter((f) => f.review_required && f.is_confirmed !== true)
      .map((f) => f.name);
    if (d.classification.review_required && d.classification.confirmed !== true) needs.unshift("classification");
    if (d.split.review_required) needs.unshift("split");
    return {
      document_type: d.document_type,
      key_fields: Object.fromEntries(keys.map(([id, f]) => [id, f.value])),
      needs_review: needs,
    };
  });
  return {
    found,
    needs_review: found.reduce((n, d) => n + d.needs_review.length, 0),
    validation: results.validation.overall_status,
  };
}

/** `Invoice: INV-1 · 2023-03-20 · 279.84` */
export function describeFound(d: FoundDocument): string {
  const values = Object.values(d.key_fields).map(String);
  return values.length ? `${d.document_type}: ${values.join(" · ")}` : `${d.document_type}: no key fields found`;
}
