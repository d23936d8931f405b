/**
 * Capture tokens (migration 003_capture.sql). Plain functions over one table; the lifecycle rules live in
 * src/capture/tokens.ts. Every state move is a single guarded UPDATE, so two requests racing on one token can
 * never both win: exactly one first scan, exactly one submit.
 */
import type { Db } from "../schema/db";

export type CaptureState = "issued" | "active" | "consumed" | "expired";

export interface CaptureTokenRecord {
  token_hash: string;
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  dataset_id: string;
  reviewer_id: string | null;
  page_limit: number | null;
  max_pages: number;
  ttl_seconds: number;
  label: string | null;
  minted_by: "api_key" | "admin";
  key_id: string | null;
  client_id: string | null;
  admin_key_hash: string | null;
  state: CaptureState;
  issued_at: number;
  expires_at: number;
  deadline_at: number;
  scanned_at: number | null;
  consumed_at: number | null;
  expired_at: number | null;
}

export type NewCaptureToken = Omit<
  CaptureTokenRecord,
  "state" | "deadline_at" | "scanned_at" | "consumed_at" | "expired_at"
>;

export function insertCaptureToken(db: Db, t: NewCaptureToken): CaptureTokenRecord {
  db.query(
    `INSERT INTO capture_tokens (token_hash, transaction_id, tenant_id, project_id, dataset_id, reviewer_id, page_limit,
       max_pages, ttl_seconds, label, minted_by, key_id, client_id, admin_key_hash, state, issued_at, expires_at, deadline_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'issued', ?, ?, ?)`,
  ).run(
    t.token_hash,
    t.transaction_id,
    t.tenant_id,
    t.project_id,
    t.dataset_id,
    t.reviewer_id,
    t.page_limit,
    t.max_pages,
    t.ttl_seconds,
    t.label,
    t.minted_by,
    t.key_id,
    t.client_id,
    t.admin_key_hash,
    t.issued_at,
    t.expires_at,
    t.expires_at,
  );
  return getCaptureToken(db, t.token_hash)!;
}

export function getCaptureToken(db: Db, tokenHash: string): CaptureTokenRecord | null {
  return (
    db.query<CaptureTokenRecord, [string]>("SELECT * FROM capture_tokens WHERE token_hash = ?").get(tokenHash) ?? null
  );
}

export function getCaptureTokenByTransaction(db: Db, transactionId: string): CaptureTokenRecord | null {
  return (
    db
      .query<CaptureTokenRecord, [string]>("SELECT * FROM capture_tokens WHERE transaction_id = ?")
      .get(transactionId) ?? null
  );
}

/** issued → active, only before its deadline; the active window ends at `now + ttl`. True when this call moved it. */
export function activateCaptureToken(db: Db, tokenHash: string, now: number): boolean {
  return (
    db
      .query(
        "UPDATE capture_tokens SET state = 'active', scanned_at = ?1, deadline_at = ?1 + ttl_seconds * 1000 WHERE token_hash = ?2 AND state = 'issued' AND deadline_at > ?1",
      )
      .run(now, tokenHash).changes === 1
  );
}

/** issued/active → expired once the deadline has passed (`deadline_at <= now`). True when this call moved it. */
export function expireCaptureToken(db: Db, tokenHash: string, now: number): boolean {
  return (
    db
      .query(
        "UPDATE capture_tokens SET state = 'expired', expired_at = deadline_at WHERE token_hash = ?2 AND state IN ('issued', 'active') AND deadline_at <= ?1",
      )
      .run(now, tokenHash).changes === 1
  );
}

/** active → consumed, only inside the window. True when this call won; the caller MUST do so in the write transaction that creates the transaction. */
export function consumeCaptureToken(db: Db, tokenHash: string, now: number): boolean {
  return (
    db
      .query(
        "UPDATE capture_tokens SET state = 'consumed', consumed_at = ?1 WHERE token_hash = ?2 AND state = 'active' AND deadline_at > ?1",
      )
      .run(now, tokenHash).changes === 1
  );
}

/** Deletes tokens whose last moment of use (deadline, or consumption) is before `cutoff`. Returns how many. */
export function deleteCaptureTokensBefore(db: Db, cutoff: number): number {
  return db
    .query(
      "DELETE FROM capture_tokens WHERE (state = 'consumed' AND consumed_at < ?1) OR (state <> 'consumed' AND deadline_at < ?1)",
    )
    .run(cutoff).changes;
}
