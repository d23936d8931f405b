/**
 * Transactions: every field of the spec's Transaction table, plus internal columns (current_step, project_version,
 * source, the original request). Status moves are guarded UPDATEs (`WHERE status = ...`), so two processes can never
 * both win the same transition.
 */
import { isPostgres, json, type Db } from "../schema/db";
import { wipePasswords } from "../files/source-file-passwords";
import { inChunks } from "./in-chunks";

export type TransactionStatus = "created" | "queued" | "processing" | "awaiting_input" | "completed" | "failed";
export const TRANSACTION_STATUSES: readonly TransactionStatus[] = [
  "created",
  "queued",
  "processing",
  "awaiting_input",
  "completed",
  "failed",
];
export const TERMINAL_STATUSES: readonly TransactionStatus[] = ["completed", "failed"];

export interface TransactionRecord {
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  status: TransactionStatus;
  correlation_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  processing_time_seconds: number | null;
  error_message: string | null;
  review_metadata: Record<string, unknown> | null;
  dataset_id: string;
  page_limit: number | null;
  priority: number;
  current_step: string | null;
  project_version: number | null;
  source: string;
  request: Record<string, unknown> | null;
  document_text: string | null;
  ocr_data: unknown;
  updated_at: string;
}

type Row = Omit<TransactionRecord, "metadata" | "review_metadata" | "request" | "ocr_data"> & {
  metadata: string;
  review_metadata: string | null;
  request: string | null;
  ocr_data: string | null;
};

export const toTransaction = (r: Row): TransactionRecord => ({
  ...r,
  metadata: json(r.metadata, {}),
  review_metadata: json(r.review_metadata, null),
  request: json(r.request, null),
  ocr_data: json(r.ocr_data, null),
});

export interface NewTransaction {
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  status?: TransactionStatus;
  correlation_id?: string | null;
  metadata?: Record<string, unknown>;
  dataset_id?: string;
  page_limit?: number | null;
  priority?: number;
  source?: string;
  request?: Record<string, unknown> | null;
  document_text?: string | null;
  ocr_data?: unknown;
  now: string;
}

export function createTransaction(db: Db, t: NewTransaction): TransactionRecord {
  db.query(
    `INSERT INTO transactions (transaction_id, tenant_id, project_id, status, correlation_id, metadata, created_at,
       dataset_id, page_limit, priority, source, request, document_text, ocr_data, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    t.transaction_id,
    t.tenant_id,
    t.project_id,
    t.status ?? "created",
    t.correlation_id ?? null,
    JSON.stringify(t.metadata ?? {}),
    t.now,
    t.dataset_id ?? "production",
    t.page_limit ?? null,
    t.priority ?? 0,
    t.source ?? "api",
    t.request ? JSON.stringify(t.request) : null,
    t.document_text ?? null,
    t.ocr_data === undefined || t.ocr_data === null ? null : JSON.stringify(t.ocr_data),
    t.now,
  );
  return getTransaction(db, t.transaction_id)!;
}

export function getTransaction(db: Db, id: string): TransactionRecord | null {
  const row = db.query<Row, [string]>("SELECT * FROM transactions WHERE transaction_id = ?").get(id);
  return row ? toTransaction(row) : null;
}

export function getTransactions(db: Db, ids: string[]): TransactionRecord[] {
  // stack-safe: at most IN_CHUNK (500) parameters per call.
  return inChunks(ids, (chunk, marks) =>
    db.query<Row, string[]>(`SELECT * FROM transactions WHERE transaction_id IN (${marks})`).all(...chunk),
  ).map(toTransaction);
}

/** Every column except the large request inputs (request, document_text, ocr_data): what status reads need. */
export type TransactionSummary = Omit<TransactionRecord, "request" | "document_text" | "ocr_data">;

export const SUMMARY_COLUMNS = `transaction_id, tenant_id, project_id, status, correlation_id, metadata, created_at, started_at, completed_at,
  processing_time_seconds, error_message, review_metadata, dataset_id, page_limit, priority, current_step, project_version, source, updated_at`;

export type SummaryRow = Omit<TransactionSummary, "metadata" | "review_metadata"> & {
  metadata: string;
  review_metadata: string | null;
};

/** Parses the JSON columns in place (rows are fresh objects; this is the hot path of status reads). */
export const toSummary = (r: SummaryRow): TransactionSummary => {
  const out = r as unknown as TransactionSummary;
  out.metadata = json(r.metadata, {});
  out.review_metadata = json(r.review_metadata as string | null, null);
  return out;
};

/** The hot read of GET /transactions/{id}: one indexed row, two small JSON columns parsed. */
export function getTransactionSummary(db: Db, id: string): TransactionSummary | null {
  const row = db
    .query<SummaryRow, [string]>(`SELECT ${SUMMARY_COLUMNS} FROM transactions WHERE transaction_id = ?`)
    .get(id);
  return row ? toSummary(row) : null;
}

export function getTransactionSummaries(db: Db, ids: string[]): TransactionSummary[] {
  // stack-safe: at most IN_CHUNK (500) parameters per call.
  return inChunks(ids, (chunk, marks) =>
    db
      .query<SummaryRow, string[]>(`SELECT ${SUMMARY_COLUMNS} FROM transactions WHERE transaction_id IN (${marks})`)
      .all(...chunk),
  ).map(toSummary);
}

/** Status only, for long-poll re-checks of many transactions in one query. */
export function statusesOf(db: Db, ids: string[]): Map<string, TransactionStatus> {
  const out = new Map<string, TransactionStatus>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map(() => "?").join(",");
    const rows = db
      .query<{ transaction_id: string; status: TransactionStatus }, string[]>(
        `SELECT transaction_id, status FROM transactions WHERE transaction_id IN (${marks})`,
      )
      // stack-safe: chunks of 500.
      .all(...chunk);
    for (const r of rows) out.set(r.transaction_id, r.status);
  }
  return out;
}

/** created → queued. Returns false when the transaction was not in `created`. */
export function markQueued(db: Db, id: string, now: string, priority?: number): boolean {
  return (
    db
      .query(
        "UPDATE transactions SET status = 'queued', priority = COALESCE(?, priority), updated_at = ? WHERE transaction_id = ? AND status = 'created'",
      )
      .run(priority ?? null, now, id).changes === 1
  );
}

/** queued → processing (also re-entry after a crashed attempt). started_at keeps the first start. */
export function markProcessing(db: Db, id: string, now: string, projectVersion: number): boolean {
  return (
    db
      .query(
        `UPDATE transactions SET status = 'processing', started_at = COALESCE(started_at, ?), project_version = ?,
           error_message = NULL, updated_at = ?
         WHERE transaction_id = ? AND status IN ('queued', 'processing')`,
      )
      .run(now, projectVersion, now, id).changes === 1
  );
}

/** Back to `queued` after a retryable failure or a released lease. */
export function markRequeued(db: Db, id: string, now: string): void {
  db.query(
    "UPDATE transactions SET status = 'queued', updated_at = ? WHERE transaction_id = ? AND status = 'processing'",
  ).run(now, id);
}

/** awaiting_input → queued (a review finished). Returns false when the transaction was not awaiting input. */
export function markResumed(db: Db, id: string, now: string): boolean {
  return (
    db
      .query(
        "UPDATE transactions SET status = 'queued', review_metadata = NULL, updated_at = ? WHERE transaction_id = ? AND status = 'awaiting_input'",
      )
      .run(now, id).changes === 1
  );
}

/** completed | failed → queued for a rerun, timing and error cleared. Returns false in any other state. */
export function markRerun(db: Db, id: string, now: string): boolean {
  return (
    db
      .query(
        `UPDATE transactions SET status = 'queued', started_at = NULL, completed_at = NULL, processing_time_seconds = NULL,
           error_message = NULL, review_metadata = NULL, updated_at = ? WHERE transaction_id = ? AND status IN ('completed', 'failed')`,
      )
      .run(now, id).changes === 1
  );
}

/** Who owns a transaction (the guard's permission check on `/transactions/{id}`…). */
export function transactionOwner(
  db: Db,
  id: string,
): { tenant_id: string; project_id: string; dataset_id?: string } | null {
  return db
    .query<{ tenant_id: string; project_id: string; dataset_id?: string }, [string]>(
      "SELECT tenant_id, project_id, dataset_id FROM transactions WHERE transaction_id = ?",
    )
    .get(id);
}

/** Final states wipe the source-file passwords: nothing can need them any more. */
export function markCompleted(db: Db, id: string, now: string, processingSeconds: number): void {
  wipePasswords(db, id);
  db.query(
    `UPDATE transactions SET status = 'completed', completed_at = ?, processing_time_seconds = ?, error_message = NULL,
       review_metadata = NULL, current_step = 'completed', updated_at = ? WHERE transaction_id = ?`,
  ).run(now, processingSeconds, now, id);
}

export function markFailed(db: Db, id: string, now: string, message: string, processingSeconds: number | null): void {
  wipePasswords(db, id);
  db.query(
    `UPDATE transactions SET status = 'failed', completed_at = ?, processing_time_seconds = ?, error_message = ?,
       updated_at = ? WHERE transaction_id = ?`,
  ).run(now, processingSeconds, message, now, id);
}

/** processing → awaiting_input, with the spec's review_metadata (step_name, instructions, timeout_hours). */
export function markAwaitingInput(db: Db, id: string, now: string, review: Record<string, unknown>): void {
  db.query(
    "UPDATE transactions SET status = 'awaiting_input', review_metadata = ?, updated_at = ? WHERE transaction_id = ?",
  ).run(JSON.stringify(review), now, id);
}

/** Writes metadata.progress and metadata.step_progress, leaving the client's own keys alone. */
export function setProgress(
  db: Db,
  id: string,
  progress: unknown,
  stepProgress: { current_step: string } & Record<string, unknown>,
  now: string,
): void {
  db.query(
    isPostgres(db)
      ? `UPDATE transactions SET metadata = jsonb_set(jsonb_set(metadata::jsonb, '{progress}', CAST(? AS text)::jsonb), '{step_progress}', CAST(? AS text)::jsonb)::text,
           current_step = ?, updated_at = ? WHERE transaction_id = ?`
      : `UPDATE transactions SET metadata = json_set(metadata, '$.progress', json(?), '$.step_progress', json(?)),
           current_step = ?, updated_at = ? WHERE transaction_id = ?`,
  ).run(JSON.stringify(progress), JSON.stringify(stepProgress), stepProgress.current_step, now, id);
}

/** Mean processing time of the last `n` completed transactions, for completion estimates. */
export function recentProcessingSeconds(db: Db, n = 50): number | null {
  const row = db
    .query<{ avg: number | null }, [number]>(
      `SELECT AVG(processing_time_seconds) AS avg FROM (SELECT processing_time_seconds FROM transactions
        WHERE status = 'completed' AND processing_time_seconds IS NOT NULL ORDER BY completed_at DESC LIMIT ?) AS recent`,
    )
    .get(n);
  return row?.avg ?? null;
}
