/**
 * Saves what a pipeline run produced. MUST replace (never append to) a transaction's pages, documents, fields,
 * index values and manifest in ONE SQLite transaction, so a retried or recovered run can never leave duplicates.
 */
import type { DocumentResult, ResultsFile, ResultsPage } from "../../core/model";
import type { Db } from "../schema/db";
import { deleteDocuments, insertDocuments } from "../transactions/documents";
import { replaceManifest, type StoredManifest } from "../files/export-files";
import { deletePages, insertPages } from "../transactions/pages";
import { deletePageImages, storeReviewResults, storeReviewResultsText } from "./review-states";
import type { RunJson } from "./run-json";
import { indexValuesOf, replaceIndex } from "../transactions/transaction-index";

export interface RunOutput {
  documents: DocumentResult[];
  pages: Array<ResultsPage & { source_file_index?: number }>;
  manifest: StoredManifest;
  /**
   * The full results file (pages with words): becomes the transaction's review state (docs/review.md). As an
   * object, or as JSON text serialised where the run happened (storage/results/run-json.ts).
   */
  review?: { results: ResultsFile; now: string } | { text: Pick<RunJson, "results" | "lastHumanReview">; now: string };
}

/** Call inside a transaction the caller opened (it also finishes the job under its lease). */
export function replaceResults(db: Db, transactionId: string, out: RunOutput): void {
  deleteDocuments(db, transactionId);
  deletePages(db, transactionId);
  insertPages(db, transactionId, out.pages);
  insertDocuments(db, transactionId, out.documents);
  replaceIndex(db, transactionId, indexValuesOf(out.documents));
  replaceManifest(db, transactionId, out.manifest);
  deletePageImages(db, transactionId);
  if (out.review && "text" in out.review) storeReviewResultsText(db, transactionId, out.review.text, out.review.now);
  else if (out.review) storeReviewResults(db, transactionId, out.review.results, out.review.now);
}

/** Mirrors reviewed documents into the documents, fields and index rows (GET /documents, search, sort). */
export function replaceDocuments(db: Db, transactionId: string, documents: DocumentResult[]): void {
  deleteDocuments(db, transactionId);
  insertDocuments(db, transactionId, documents);
  replaceIndex(db, transactionId, indexValuesOf(documents));
}
