/**
 * Review states (docs/review.md): the results file a reviewer works on, its history and a version number.
 *
 * Contracts:
 * - `storeReviewResults` is called whenever a run stores results: it replaces the state and raises the version, so a
 *   reviewer holding a version from before the run gets 409 instead of overwriting the new results.
 * - `saveReviewState` writes only when the stored version is still `expected` (compare-and-set) and MUST run in the
 *   caller's transaction together with the rows it mirrors (documents, fields, index), so they never disagree.
 */
import type { ResultsFile } from "../../core/model";
import type { ReviewState } from "../../core/stages/review/actions";
import { isPostgres, json, type Db } from "../schema/db";

interface Row {
  version: number;
  state: string;
  updated_at: string;
}

export function getReviewState(db: Db, transactionId: string): (ReviewState & { updated_at: string }) | null {
  const row = db
    .query<Row, [string]>("SELECT version, state, updated_at FROM review_states WHERE transaction_id = ?")
    .get(transactionId);
  if (!row) return null;
  const stored = json(row.state, {} as Omit<ReviewState, "version">);
  return { ...stored, version: row.version, updated_at: row.updated_at };
}

/**
 * A fresh review state over new results; the version keeps rising across runs. Results that carry a finished
 * review (a run resumed after it) keep its history and stay finished.
 */
export function storeReviewResults(db: Db, transactionId: string, results: ResultsFile, now: string): void {
  storeReviewResultsText(
    db,
    transactionId,
    { results: JSON.stringify(results), lastHumanReview: results.transaction.last_human_review },
    now,
  );
}

/** How many review states were stored from UTF-8 bytes as they came, without a string made of them (tests). */
let storedAsBytes = 0;
export const reviewStatesStoredAsBytes = (): number => storedAsBytes;

/**
 * `storeReviewResults` with the results file already JSON text (serialised on the pipeline thread, storage/results/run-json.ts);
 * the stored state is the same text. As UTF-8 bytes (how it crossed from the pipeline thread) it goes into SQLite
 * as they are, cast to TEXT: decoding 12 MB (500 pages) into a string only for SQLite to encode it again took ~25 ms
 * of the HTTP thread per transaction. PostgreSQL's driver takes strings.
 */
export function storeReviewResultsText(
  db: Db,
  transactionId: string,
  results: { results: string | Uint8Array; lastHumanReview: unknown },
  now: string,
): void {
  const review = results.lastHumanReview as
    | { finished?: boolean; reviewed_at?: string; changes?: unknown[] }
    | undefined;
  // Exactly JSON.stringify({ results, history, finished_at }), with the results' text spliced in as it is.
  const head = `{"results":`;
  const tail = `,"history":${JSON.stringify(review?.changes ?? [])},"finished_at":${JSON.stringify(review?.finished ? (review.reviewed_at ?? now) : null)}}`;
  const upsert = (
    value: string,
  ) => `INSERT INTO review_states (transaction_id, version, state, updated_at) VALUES (?, 1, ${value}, ?)
     ON CONFLICT (transaction_id) DO UPDATE SET version = review_states.version + 1, state = excluded.state, updated_at = excluded.updated_at`;
  const text = results.results;
  if (typeof text !== "string" && !isPostgres(db)) {
    const encoder = new TextEncoder();
    const state = Buffer.concat([encoder.encode(head), text, encoder.encode(tail)]);
    storedAsBytes++;
    db.query(upsert("CAST(? AS TEXT)")).run(transactionId, state, now);
    return;
  }
  const state = head + (typeof text === "string" ? text : new TextDecoder().decode(text)) + tail;
  db.query(upsert("?")).run(transactionId, state, now);
}

/** Compare-and-set: true when the state was at `expected` and is now `state.version`. */
export function saveReviewState(
  db: Db,
  transactionId: string,
  expected: number,
  state: ReviewState,
  now: string,
): boolean {
  const { version, results, history, finished_at } = state;
  const res = db
    .query("UPDATE review_states SET version = ?, state = ?, updated_at = ? WHERE transaction_id = ? AND version = ?")
    .run(version, JSON.stringify({ results, history, finished_at }), now, transactionId, expected);
  return res.changes === 1;
}

export function getPageImage(
  db: Db,
  transactionId: string,
  pageNumber: number,
): { blob_hash: string; content_type: string } | null {
  return db
    .query<{ blob_hash: string; content_type: string }, [string, number]>(
      "SELECT blob_hash, content_type FROM page_images WHERE transaction_id = ? AND page_number = ?",
    )
    .get(transactionId, pageNumber);
}

export function putPageImage(
  db: Db,
  transactionId: string,
  pageNumber: number,
  blobHash: string,
  contentType: string,
): void {
  db.query(
    "INSERT INTO page_images (transaction_id, page_number, blob_hash, content_type) VALUES (?, ?, ?, ?) ON CONFLICT (transaction_id, page_number) DO UPDATE SET blob_hash = excluded.blob_hash, content_type = excluded.content_type",
  ).run(transactionId, pageNumber, blobHash, contentType);
}

/** Rendered images describe the pages of one run; a new run renders again. */
export function deletePageImages(db: Db, transactionId: string): void {
  db.query("DELETE FROM page_images WHERE transaction_id = ?").run(transactionId);
}
