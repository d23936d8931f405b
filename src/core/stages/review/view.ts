/**
 * What a reviewer sees (GET …/review on the server and in `docproc review`): documents as in the results file,
 * pages with their OCR words and an image URL, the project's classes and fields, and the version to write against.
 */
import type { ProjectSettings } from "../../project";
import type { ReviewState } from "./actions";

export interface ReviewViewExtras {
  status: string;
  review_metadata: Record<string, unknown> | null;
  /** `/transactions/{id}/review/pages/{n}/image` by default. */
  imageUrl?: (pageNumber: number) => string;
}

export function buildReviewView(state: ReviewState, project: ProjectSettings, extras: ReviewViewExtras) {
  const { results } = state;
  const id = results.transaction_id;
  const imageUrl = extras.imageUrl ?? ((n: number) => `/transactions/${id}/review/pages/${n}/image`);
  return {
    transaction_id: id,
    status: extras.status,
    version: state.version,
    finished: state.finished_at !== null,
    review_metadata: extras.review_metadata,
    last_human_review: results.transaction.last_human_review,
    validation: results.validation,
    source_file_names: results.transaction.source_file_names,
    documents: results.documents,
    pages: (results.pages ?? []).map((p) => ({
      page_number: p.page_number,
      source_filename: p.source_filename,
      source_file_page_number: p.source_file_page_number,
      image_transform: p.image_transform,
      text_source: p.text_source,
      image_url: imageUrl(p.page_number),
      words: (p.words ?? []).map((w) => ({ text: w.text, bounding_box: w.bounding_box, confidence: w.confidence })),
    })),
    classes: project.classes.map((c) => ({ id: c.id, name: c.name })),
    fields: Object.fromEntries(
      Object.entries(project.fields).map(([cls, list]) => [
        cls,
        list
          .filter((f) => f.type !== "table")
          .map((f) => ({ id: f.id, name: f.name, type: f.type, required: f.required })),
      ]),
    ),
    thresholds: project.review_thresholds,
  };
}

/** How many fields and classifications of a results file still need a person (review_required, not confirmed). */
export function needsReviewCount(documents: ReviewState["results"]["documents"]): number {
  let n = 0;
  for (const d of documents) {
    if (d.classification.review_required && d.classification.confirmed !== true) n++;
    for (const f of Object.values(d.fields)) if (f.review_required && f.is_confirmed !== true) n++;
  }
  return n;
}
