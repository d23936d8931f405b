/**
 * Human review: the corrections a reviewer can make to a transaction's results, as pure functions over the results
 * file. The server (src/server/services/review.ts) and `docproc review` (src/cli/review-folder.ts) both call
 * `applyReviewAction`; they only differ in where the state is stored.
 *
 * Contracts:
 * - An action MUST NOT mutate its input; it returns a new state whose `version` is one higher.
 * - Whatever a person set or confirmed is marked: `is_confirmed: true` on fields, `classification.confirmed: true`
 *   on documents, `review_required: false` on both. Every action appends one entry (who, when, what changed) to
 *   `history`; `transaction.last_human_review` of the results file is rebuilt from it.
 * - Validation is run again over the changed documents and the transaction, so messages always match the values.
 * - Split corrections classify and extract the documents they create from the stored pages (words included): no
 *   conversion, no OCR.
 */
import { DocprocError } from "../../errors";
import type { DocumentResult, FieldBox, FieldResult, FieldValue, ResultsFile } from "../../model";
import type { ProjectSettings } from "../../project";
import { worstStatus } from "../../results";
import { validateDocument, validateTransaction } from "../validate";
import { einvoiceResultsOf } from "../../einvoice/validate/rule-results";
import { normalizeReviewedValue } from "./values";
import { mergeDocuments, moveBoundary, reextractFields, splitDocument } from "./split";
import { ReviewActionSchema, type ReviewAction, type ReviewEntry, type Reviewer, type ReviewState } from "./schema";

export {
  ReviewActionSchema,
  type ReviewAction,
  type ReviewChange,
  type ReviewEntry,
  type Reviewer,
  type ReviewState,
} from "./schema";

export function newReviewState(results: ResultsFile): ReviewState {
  return { version: 1, results, history: [], finished_at: null };
}

/** Parses a request body into an action; problems are `invalid_input` naming the fields. */
export function parseReviewAction(body: unknown): ReviewAction {
  const parsed = ReviewActionSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
  throw new DocprocError("invalid_input", problems.join("; "));
}

export interface ActionContext {
  project: ProjectSettings;
  reviewer: Reviewer;
  now: Date;
}

/** Applies one action and returns the new state (input untouched). */
export function applyReviewAction(state: ReviewState, action: ReviewAction, ctx: ActionContext): ReviewState {
  if (state.finished_at)
    throw new DocprocError("conflict", `the review of ${state.results.transaction_id} is already finished`);
  const results = structuredClone(state.results);
  const entry: ReviewEntry = { action: action.action, at: ctx.now.toISOString(), reviewer: ctx.reviewer, changes: [] };
  const changed = run(results, action, ctx, entry);
  for (const doc of changed) revalidate(doc, ctx.project);
  results.validation.transaction_rule_results = validateTransaction(results.documents, ctx.project);
  results.validation.overall_status = worstStatus([
    ...results.documents.map((d) => d.validation?.overall_status ?? "success"),
    ...results.validation.transaction_rule_results.map((r) => r.status),
  ]);
  const history = [...state.history, entry];
  const finishedAt = action.action === "finish" ? entry.at : null;
  results.transaction.last_human_review = lastHumanReview(history, finishedAt);
  return { version: state.version + 1, results, history, finished_at: finishedAt };
}

function run(results: ResultsFile, action: ReviewAction, ctx: ActionContext, entry: ReviewEntry): DocumentResult[] {
  switch (action.action) {
    case "set_field": {
      const doc = documentOf(results, action.document_id);
      const field = fieldOf(doc, action.field_id, ctx.project);
      entry.document_id = doc.document_id;
      entry.field_id = action.field_id;
      const settings = ctx.project.fields[doc.classification.class_id]?.find((f) => f.id === action.field_id);
      const value =
        typeof action.value === "string"
          ? normalizeReviewedValue(settings, action.value, ctx.project.locale)
          : action.value;
      record(entry, `fields.${action.field_id}.value`, field.value, value);
      if (action.bounding_boxes) {
        checkBoxes(results, action.bounding_boxes);
        record(entry, `fields.${action.field_id}.bounding_boxes`, field.bounding_boxes, action.bounding_boxes);
        field.bounding_boxes = action.bounding_boxes as FieldBox[];
      }
      field.value = value as FieldValue;
      if (typeof action.value === "string") field.raw_text = action.value;
      field.reasoning = `Set by ${ctx.reviewer.id} in review`;
      confirmField(field, entry, action.field_id);
      return [doc];
    }
    case "confirm_field": {
      const doc = documentOf(results, action.document_id);
      entry.document_id = doc.document_id;
      entry.field_id = action.field_id;
      confirmField(fieldOf(doc, action.field_id, ctx.project), entry, action.field_id);
      return [doc];
    }
    case "set_class": {
      const doc = documentOf(results, action.document_id);
      const cls = ctx.project.classes.find((c) => c.id === action.class_id);
      if (!cls)
        throw new DocprocError(
          "invalid_input",
          `class_id: unknown class ${JSON.stringify(action.class_id)}; allowed: ${ctx.project.classes.map((c) => c.id).join(", ")}`,
        );
      entry.document_id = doc.document_id;
      record(entry, "classification.class_id", doc.classification.class_id, cls.id);
      const reclassified = cls.id !== doc.classification.class_id;
      doc.classification = {
        ...doc.classification,
        class_id: cls.id,
        type: cls.name,
        confidence: 1,
        reasoning: `Set by ${ctx.reviewer.id} in review`,
      };
      doc.document_type = cls.name;
      doc.classification_confidence = 1;
      confirmClass(doc, entry);
      // Another class has other fields: they are read again from the document's pages for that class.
      if (reclassified) doc.fields = reextractFields(results, doc, ctx.project);
      return [doc];
    }
    case "confirm_document": {
      const doc = documentOf(results, action.document_id);
      entry.document_id = doc.document_id;
      confirmClass(doc, entry);
      for (const [id, field] of Object.entries(doc.fields)) confirmField(field, entry, id);
      return [doc];
    }
    case "move_boundary":
      return moveBoundary(results, documentOf(results, action.document_id), action.first_page, ctx.project, entry);
    case "merge_documents":
      return mergeDocuments(results, documentOf(results, action.document_id), ctx.project, entry);
    case "split_document":
      return splitDocument(results, documentOf(results, action.document_id), action.at_page, ctx.project, entry);
    case "finish":
      return [];
  }
}

function documentOf(results: ResultsFile, id: string): DocumentResult {
  const doc = results.documents.find((d) => d.document_id === id);
  if (!doc)
    throw new DocprocError(
      "not_found",
      `document ${JSON.stringify(id)} is not in transaction ${results.transaction_id}`,
    );
  return doc;
}

/** A field of the document; a field the class defines but extraction left out is created empty. */
function fieldOf(doc: DocumentResult, fieldId: string, project: ProjectSettings): FieldResult {
  const existing = doc.fields[fieldId];
  if (existing) return existing;
  const settings = project.fields[doc.classification.class_id]?.find((f) => f.id === fieldId);
  if (!settings)
    throw new DocprocError(
      "not_found",
      `field ${JSON.stringify(fieldId)} is not a field of document ${doc.document_id} (${doc.classification.class_id})`,
    );
  const created: FieldResult = {
    name: settings.name,
    value: null,
    confidence: 0,
    bounding_boxes: [],
    reasoning: "",
    review_required: true,
    is_confirmed: null,
  };
  doc.fields[fieldId] = created;
  return created;
}

function checkBoxes(results: ResultsFile, boxes: Array<{ page_index: number }>): void {
  const known = new Set((results.pages ?? []).map((p) => p.page_number));
  const bad = boxes.filter((b) => known.size > 0 && !known.has(b.page_index));
  if (bad.length)
    throw new DocprocError(
      "invalid_input",
      `bounding_boxes: page_index ${bad.map((b) => b.page_index).join(", ")} is not a page of this transaction`,
    );
}

function confirmField(field: FieldResult, entry: ReviewEntry, id: string): void {
  if (field.is_confirmed !== true) record(entry, `fields.${id}.is_confirmed`, field.is_confirmed, true);
  field.is_confirmed = true;
  field.review_required = false;
}

export function confirmClass(doc: DocumentResult, entry: ReviewEntry): void {
  if (doc.classification.confirmed !== true)
    record(entry, "classification.confirmed", doc.classification.confirmed, true);
  doc.classification.confirmed = true;
  doc.classification.review_required = false;
}

export function record(entry: ReviewEntry, path: string, before: unknown, after: unknown): void {
  entry.changes.push({ path, before: structuredClone(before ?? null), after: structuredClone(after ?? null) });
}

function revalidate(doc: DocumentResult, project: ProjectSettings): void {
  const validation = validateDocument(doc, project, einvoiceResultsOf(doc.validation));
  if (validation) doc.validation = validation;
  else delete doc.validation;
}

/**
 * `transaction.last_human_review` of the results file: the final review action (who, when, what) and every change
 * of the review, in order. Before anyone acts it is `{ reviewed: false }` (buildResultsFile).
 */
function lastHumanReview(history: ReviewEntry[], finishedAt: string | null): Record<string, unknown> {
  const last = history[history.length - 1]!;
  return {
    reviewed: true,
    finished: finishedAt !== null,
    action: last.action,
    reviewer: last.reviewer,
    reviewed_at: last.at,
    changes: history
      .filter((e) => e.changes.length > 0)
      .map(({ action, at, reviewer, document_id, field_id, changes }) => ({
        action,
        at,
        reviewer,
        document_id,
        field_id,
        changes,
      })),
  };
}
