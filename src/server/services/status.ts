/**
 * Transaction status views: the spec's Transaction fields, `fields` projection with dot notation, include_request.
 * This reports status, never results (those are the export files).
 */
import { DocprocError } from "../../core/errors";
import { progressOfStatus } from "../../queue/progress";
import type { Db } from "../../storage/schema/db";
import { indexesWithPassword } from "../../storage/files/source-file-passwords";
import { listSourceFiles } from "../../storage/files/source-files";
import { getTransaction, type TransactionSummary } from "../../storage/transactions/transactions";

/**
 * metadata with the service's `progress` and `step_progress` (spec: the service adds them). Workers write them from
 * `queued` on; a transaction still in `created` shows 0 % with current_step `created` (progressOfStatus).
 */
function withProgress(t: TransactionSummary): Record<string, unknown> {
  if (t.metadata.progress && t.metadata.step_progress) return t.metadata;
  const snap = progressOfStatus(t.status);
  return { ...t.metadata, progress: snap.progress, step_progress: snap.step_progress };
}

export function transactionView(
  db: Db,
  t: TransactionSummary,
  opts: { includeRequest?: boolean } = {},
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    transaction_id: t.transaction_id,
    tenant_id: t.tenant_id,
    project_id: t.project_id,
    status: t.status,
    correlation_id: t.correlation_id,
    metadata: withProgress(t),
    created_at: t.created_at,
    started_at: t.started_at,
    completed_at: t.completed_at,
    processing_time_seconds: t.processing_time_seconds,
    dataset_id: t.dataset_id,
    page_limit: t.page_limit,
    priority: t.priority,
  };
  if (t.status === "failed") view.error_message = t.error_message ?? "processing failed";
  if (t.status === "awaiting_input" && t.review_metadata) view.review_metadata = t.review_metadata;
  if (opts.includeRequest && t.status === "completed") {
    const full = getTransaction(db, t.transaction_id)!;
    const locked = indexesWithPassword(db, t.transaction_id);
    view.request = {
      ...(full.request ?? {}),
      source_files: listSourceFiles(db, t.transaction_id).map((f) => ({
        index: f.file_index,
        filename: f.filename,
        original_filename: f.original_name,
        content_type: f.content_type,
        size: f.size,
        split_policy: f.split_policy,
        upload_token: f.upload_token,
        uploaded_at: f.uploaded_at,
        has_password: locked.has(f.file_index),
      })),
      ...(full.document_text ? { documentText: full.document_text } : {}),
      ...(full.ocr_data ? { ocrData: full.ocr_data } : {}),
    };
  }
  return view;
}

const FIELD = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

/** Parses `fields=status,metadata.step_progress`; null means all fields. */
export function parseFields(raw: string | undefined): string[][] | null {
  if (raw === undefined || raw.trim() === "") return null;
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.filter((p) => !FIELD.test(p));
  if (bad.length)
    throw new DocprocError(
      "invalid_input",
      `fields: invalid field name(s) ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
    );
  return parts.map((p) => p.split("."));
}

/** Keeps only the requested paths (plus transaction_id); a missing path is left out rather than invented. */
export function project(view: Record<string, unknown>, fields: string[][] | null): Record<string, unknown> {
  if (!fields) return view;
  const out: Record<string, unknown> = { transaction_id: view.transaction_id };
  for (const path of fields) {
    let src: unknown = view;
    for (const key of path)
      src = src !== null && typeof src === "object" ? (src as Record<string, unknown>)[key] : undefined;
    if (src === undefined) continue;
    let dst = out;
    path.slice(0, -1).forEach((key) => {
      if (typeof dst[key] !== "object" || dst[key] === null) dst[key] = {};
      dst = dst[key] as Record<string, unknown>;
    });
    dst[path[path.length - 1]!] = src;
  }
  return out;
}
