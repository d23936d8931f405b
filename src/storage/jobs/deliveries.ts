/**
 * The webhook delivery log: one row per delivery, one per attempt (migration 004_deliveries.sql).
 *
 * - A delivery row MUST be inserted at most once per delivery_id (`ON CONFLICT DO NOTHING`): the queue derives ids
 *   deterministically, so a recovered transaction job cannot log (or send) a delivery twice.
 * - `request` holds the secret; `DeliveryView` (what the API and CLI show) MUST NOT carry it.
 * - State moves are guarded (`WHERE state IN ('pending','retrying')`): a finished delivery never changes again.
 */
import type { AttemptRecord, DeliveryRequest } from "../../core/notify/deliver";
import { json, type Db } from "../schema/db";

export type DeliveryState = "pending" | "retrying" | "succeeded" | "failed";

/** What is sent, for which step of which transaction, and how it is retried: fixed when the delivery is planned. */
interface DeliveryPlan {
  delivery_id: string;
  transaction_id: string;
  tenant_id: string;
  node_id: string | null;
  activity_index: number;
  event: string;
  event_name: string;
  request: DeliveryRequest;
  retry_max_attempts: number;
  retry_backoff_seconds: number;
  fail_workflow_on_error: boolean;
}

export interface NewDelivery extends DeliveryPlan {
  redelivery_of?: string | null;
  now: string;
}

/** A delivery as stored, with its request (secret included): for the queue only. */
export interface DeliveryRecord extends DeliveryPlan {
  /** The request URL for logs (redactUrl). */
  url: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface AttemptView {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status: number | null;
  kind: string;
  error: string | null;
  retry_after_seconds: number | null;
  address: string | null;
  response_excerpt: string | null;
}

/** What the delivery log endpoint and CLI show: no request, no secret. */
export type DeliveryView = Omit<DeliveryRecord, "request"> & { attempt_log: AttemptView[] };

type Row = Omit<DeliveryRecord, "request" | "fail_workflow_on_error"> & {
  request: string;
  fail_workflow_on_error: number;
};

// PostgreSQL's table carries an explicit rowid column (SQLite's is implicit): never part of the record.
const toRecord = ({ rowid: _rowid, ...r }: Row & { rowid?: number }): DeliveryRecord => ({
  ...r,
  request: json(r.request, null as unknown as DeliveryRequest),
  fail_workflow_on_error: r.fail_workflow_on_error === 1,
});

/** The URL for logs: no userinfo, and query values replaced (webhook URLs often carry tokens there). */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = "";
    u.password = "";
    for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, "***");
    return u.toString().replace(/%2A%2A%2A/g, "***");
  } catch {
    return "(unparsable URL)";
  }
}

/** Inserts the delivery unless its id exists; true when inserted. MUST run inside the caller's transaction. */
export function insertDelivery(db: Db, d: NewDelivery): boolean {
  const res = db
    .query(
      `INSERT INTO webhook_deliveries (delivery_id, transaction_id, tenant_id, node_id, activity_index, event, event_name, url,
         request, retry_max_attempts, retry_backoff_seconds, fail_workflow_on_error, redelivery_of, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .run(
      d.delivery_id,
      d.transaction_id,
      d.tenant_id,
      d.node_id,
      d.activity_index,
      d.event,
      d.event_name,
      redactUrl(d.request.url),
      JSON.stringify(d.request),
      d.retry_max_attempts,
      d.retry_backoff_seconds,
      d.fail_workflow_on_error ? 1 : 0,
      d.redelivery_of ?? null,
      d.now,
      d.now,
    );
  return res.changes === 1;
}

export function getDelivery(db: Db, deliveryId: string): DeliveryRecord | null {
  const row = db.query<Row, [string]>("SELECT * FROM webhook_deliveries WHERE delivery_id = ?").get(deliveryId);
  return row ? toRecord(row) : null;
}

/** Records one attempt (idempotent per attempt number: a re-run attempt after a crash replaces its row). */
export function recordAttempt(db: Db, deliveryId: string, a: AttemptRecord, now: string): void {
  db.query(
    `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status, kind, error,
       retry_after_seconds, address, response_excerpt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at, duration_ms = excluded.duration_ms,
       status = excluded.status, kind = excluded.kind, error = excluded.error, retry_after_seconds = excluded.retry_after_seconds,
       address = excluded.address, response_excerpt = excluded.response_excerpt`,
  ).run(
    deliveryId,
    a.attempt,
    a.started_at,
    a.duration_ms,
    a.status,
    a.kind,
    a.error ?? null,
    a.retry_after_seconds ?? null,
    a.address ?? null,
    a.response_excerpt ?? null,
  );
  db.query(
    "UPDATE webhook_deliveries SET attempts = CASE WHEN attempts > ? THEN attempts ELSE ? END, last_error = ?, updated_at = ? WHERE delivery_id = ?",
  ).run(a.attempt, a.attempt, a.ok ? null : (a.error ?? null), now, deliveryId);
}

export function markRetrying(db: Db, deliveryId: string, nextAttemptAt: string, now: string): void {
  db.query(
    "UPDATE webhook_deliveries SET state = 'retrying', next_attempt_at = ?, updated_at = ? WHERE delivery_id = ? AND state IN ('pending','retrying')",
  ).run(nextAttemptAt, now, deliveryId);
}

/** pending/retrying → succeeded or failed; false when the delivery had already ended. */
export function markEnded(db: Db, deliveryId: string, ok: boolean, error: string | null, now: string): boolean {
  return (
    db
      .query(
        `UPDATE webhook_deliveries SET state = ?, last_error = ?, next_attempt_at = NULL, completed_at = ?, updated_at = ?
         WHERE delivery_id = ? AND state IN ('pending','retrying')`,
      )
      .run(ok ? "succeeded" : "failed", ok ? null : error, now, now, deliveryId).changes === 1
  );
}

/** fail_workflow_on_error deliveries of a transaction that have not ended yet (the transaction waits for them). */
export function pendingBlockingDeliveries(db: Db, transactionId: string): number {
  return db
    .query<{ n: number }, [string]>(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE transaction_id = ? AND fail_workflow_on_error = 1 AND state IN ('pending','retrying')",
    )
    .get(transactionId)!.n;
}

const attemptsOf = (db: Db, deliveryId: string): AttemptView[] =>
  db
    .query<AttemptView, [string]>("SELECT * FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY attempt")
    .all(deliveryId)
    .map((a) => {
      const { delivery_id: _d, ...rest } = a as AttemptView & { delivery_id?: string };
      return rest;
    });

export function viewOf(db: Db, d: DeliveryRecord): DeliveryView {
  const { request: _secret, ...rest } = d;
  return { ...rest, attempt_log: attemptsOf(db, d.delivery_id) };
}

/** The log of one transaction, oldest first. */
export function listDeliveries(db: Db, transactionId: string): DeliveryView[] {
  return db
    .query<Row, [string]>(
      "SELECT * FROM webhook_deliveries WHERE transaction_id = ? ORDER BY created_at, activity_index, rowid",
    )
    .all(transactionId)
    .map((r) => viewOf(db, toRecord(r)));
}

/**
 * completed → processing at step `notify`, in the transaction that just completed it: the final status now waits
 * for its fail_workflow_on_error deliveries. False when the transaction was not `completed`.
 */
export function holdForDeliveries(db: Db, transactionId: string, now: string): boolean {
  // Read, change in JavaScript, write back: portable between the engines; the caller's transaction holds the row.
  const row = db
    .query<{ metadata: string }, [string]>(
      "SELECT metadata FROM transactions WHERE transaction_id = ? AND status = 'completed'",
    )
    .get(transactionId);
  if (!row) return false;
  const metadata = json<Record<string, unknown>>(row.metadata, {});
  const sp = metadata.step_progress;
  if (sp && typeof sp === "object" && !Array.isArray(sp)) {
    const progress = sp as Record<string, unknown>;
    progress.current_step = "notify";
    progress.current_step_name = "Notification";
    const steps =
      progress.steps && typeof progress.steps === "object"
        ? (progress.steps as Record<string, unknown>)
        : (progress.steps = {});
    (steps as Record<string, unknown>).notify = { name: "Notification", status: "running", done: 0, total: 0 };
  } else {
    metadata.step_progress = { current_step: "notify", current_step_name: "Notification" };
  }
  return (
    db
      .query(
        `UPDATE transactions SET status = 'processing', completed_at = NULL, processing_time_seconds = NULL, current_step = 'notify',
           metadata = ?, updated_at = ? WHERE transaction_id = ? AND status = 'completed'`,
      )
      .run(JSON.stringify(metadata), now, transactionId).changes === 1
  );
}

/** After the hold ends: step_progress shows the notify step done and the final step. */
export function releaseHold(db: Db, transactionId: string, finalStep: "completed" | "failed", now: string): void {
  // A failed transaction stays at the notify step, which shows as failed.
  const [step, stepName, notifyStatus] =
    finalStep === "completed"
      ? (["completed", "Completed", "completed"] as const)
      : (["notify", "Notification", "failed"] as const);
  const row = db
    .query<{ metadata: string }, [string]>("SELECT metadata FROM transactions WHERE transaction_id = ?")
    .get(transactionId);
  if (!row) return;
  const metadata = json<Record<string, unknown>>(row.metadata, {});
  const sp = (
    metadata.step_progress && typeof metadata.step_progress === "object"
      ? metadata.step_progress
      : (metadata.step_progress = {})
  ) as Record<string, unknown>;
  sp.current_step = step;
  sp.current_step_name = stepName;
  const steps = (sp.steps && typeof sp.steps === "object" ? sp.steps : (sp.steps = {})) as Record<string, unknown>;
  const notify = (steps.notify && typeof steps.notify === "object" ? steps.notify : (steps.notify = {})) as Record<
    string,
    unknown
  >;
  notify.status = notifyStatus;
  db.query("UPDATE transactions SET current_step = ?, metadata = ?, updated_at = ? WHERE transaction_id = ?").run(
    step,
    JSON.stringify(metadata),
    now,
    transactionId,
  );
}
