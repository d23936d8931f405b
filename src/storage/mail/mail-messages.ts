/**
 * The mail import ledger (migration 006). Every write that changes who may work on a message is fenced by the
 * claim token of the process holding it (`WHERE ... AND claim_token = ?`), like a queue job's lease: a process
 * whose lease ran out and was taken over can no longer record anything for that message.
 *
 * States: `claimed` (first touched, nothing imported yet), `imported` (transaction committed, mailbox action
 * pending), `done` (action done: never touched again), `failed` (import failed `attempts` times; the message
 * stays in the mailbox; retried until the connector's attempt limit).
 */
import type { Db } from "../schema/db";

export type MailMessageState = "claimed" | "imported" | "done" | "failed";

export interface MailMessageRecord {
  connector_id: string;
  uid_validity: number;
  uid: number;
  state: MailMessageState;
  message_key: string | null;
  message_id: string | null;
  subject: string | null;
  from_address: string | null;
  transaction_id: string | null;
  duplicate: number;
  attempts: number;
  error: string | null;
  claim_token: string | null;
  claim_until: number | null;
  created_at: string;
  updated_at: string;
}

export interface MessageKey {
  connector_id: string;
  uid_validity: number;
  uid: number;
}

const PK = "connector_id = ? AND uid_validity = ? AND uid = ?";
const pk = (k: MessageKey) => [k.connector_id, k.uid_validity, k.uid] as const;

export function getMailMessage(db: Db, k: MessageKey): MailMessageRecord | null {
  // stack-safe: a primary key, three values.
  return db.query<MailMessageRecord, [string, number, number]>(`SELECT * FROM mail_messages WHERE ${PK}`).get(...pk(k));
}

/** uid → state for one mailbox generation; what a poll uses to skip finished messages without a claim. */
export function statesOf(
  db: Db,
  connectorId: string,
  uidValidity: number,
): Map<number, { state: MailMessageState; attempts: number }> {
  const rows = db
    .query<{ uid: number; state: MailMessageState; attempts: number }, [string, number]>(
      "SELECT uid, state, attempts FROM mail_messages WHERE connector_id = ? AND uid_validity = ? ORDER BY uid",
    )
    .all(connectorId, uidValidity);
  return new Map(rows.map((r) => [r.uid, { state: r.state, attempts: r.attempts }]));
}

/**
 * Takes a message for `token` until `untilMs`, in one write transaction. Returns the state it had (`new` when
 * never seen), or null when it is not to be worked on now: done, failed `maxAttempts` times, or held by a live
 * lease of another process.
 */
export function claimMailMessage(
  db: Db,
  k: MessageKey,
  claim: { token: string; untilMs: number; nowMs: number; now: string; maxAttempts: number },
): "new" | MailMessageState | null {
  return db
    .transaction((): "new" | MailMessageState | null => {
      const row = getMailMessage(db, k);
      if (!row) {
        db.query(
          `INSERT INTO mail_messages (connector_id, uid_validity, uid, state, claim_token, claim_until, created_at, updated_at) VALUES (?, ?, ?, 'claimed', ?, ?, ?, ?)`,
        ).run(
          // stack-safe: a primary key, three values.
          ...pk(k),
          claim.token,
          claim.untilMs,
          claim.now,
          claim.now,
        );
        return "new";
      }
      if (row.state === "done") return null;
      if (row.state === "failed" && row.attempts >= claim.maxAttempts) return null;
      if (row.claim_token !== null && (row.claim_until ?? 0) > claim.nowMs) return null;
      // stack-safe: a primary key, three values.
      db.query(`UPDATE mail_messages SET claim_token = ?, claim_until = ?, updated_at = ? WHERE ${PK}`).run(
        claim.token,
        claim.untilMs,
        claim.now,
        ...pk(k),
      );
      return row.state;
    })
    .immediate();
}

/** The first import of a message with this key (Message-ID or content hash), if any. */
export function importedByKey(db: Db, connectorId: string, messageKey: string): { transaction_id: string } | null {
  return db
    .query<{ transaction_id: string }, [string, string]>(
      "SELECT transaction_id FROM mail_messages WHERE connector_id = ? AND message_key = ? AND state IN ('imported', 'done') AND duplicate = 0 AND transaction_id IS NOT NULL ORDER BY created_at LIMIT 1",
    )
    .get(connectorId, messageKey);
}

export interface ImportedFields {
  message_key: string;
  message_id: string | null;
  subject: string | null;
  from_address: string | null;
  transaction_id: string;
  duplicate: boolean;
}

/** MUST run inside the write transaction that creates the transaction. False: the lease was lost (do nothing). */
export function recordImported(db: Db, k: MessageKey, token: string, f: ImportedFields, now: string): boolean {
  return (
    db
      .query(
        `UPDATE mail_messages SET state = 'imported', message_key = ?, message_id = ?, subject = ?, from_address = ?, transaction_id = ?, duplicate = ?, error = NULL, updated_at = ?
         WHERE ${PK} AND claim_token = ?`,
      )
      // stack-safe: a primary key, three values.
      .run(
        f.message_key,
        f.message_id,
        f.subject,
        f.from_address,
        f.transaction_id,
        f.duplicate ? 1 : 0,
        now,
        ...pk(k), // stack-safe: a primary key, three values.
        token,
      ).changes === 1
  );
}

export function recordDone(db: Db, k: MessageKey, token: string, now: string): boolean {
  // stack-safe: a primary key, three values.
  return (
    db
      .query(
        `UPDATE mail_messages SET state = 'done', claim_token = NULL, claim_until = NULL, updated_at = ? WHERE ${PK} AND claim_token = ? AND state = 'imported'`,
      )
      .run(now, ...pk(k), token).changes === 1
  );
}

/** An import that failed: counted, reported, and the message left where it is. */
export function recordFailed(
  db: Db,
  k: MessageKey,
  token: string,
  error: string,
  now: string,
  fields: Partial<Pick<MailMessageRecord, "message_id" | "subject" | "from_address">> = {},
): boolean {
  return (
    db
      .query(
        `UPDATE mail_messages SET state = 'failed', attempts = attempts + 1, error = ?, message_id = COALESCE(?, message_id), subject = COALESCE(?, subject),
           from_address = COALESCE(?, from_address), claim_token = NULL, claim_until = NULL, updated_at = ?
         WHERE ${PK} AND claim_token = ? AND state IN ('claimed', 'failed')`,
      )
      // stack-safe: a primary key, three values.
      .run(error, fields.message_id ?? null, fields.subject ?? null, fields.from_address ?? null, now, ...pk(k), token)
      .changes === 1
  );
}

/** Gives a message back untouched (a transient problem: connection lost, queue full); not an attempt. */
export function releaseMailMessage(db: Db, k: MessageKey, token: string, error: string | null, now: string): void {
  // stack-safe: a primary key, three values.
  db.query(
    `UPDATE mail_messages SET claim_token = NULL, claim_until = NULL, error = COALESCE(?, error), updated_at = ? WHERE ${PK} AND claim_token = ?`,
  ).run(error, now, ...pk(k), token);
}

export function listMailMessages(
  db: Db,
  connectorId: string,
  opts: { state?: MailMessageState; limit?: number } = {},
): MailMessageRecord[] {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 1000);
  return opts.state
    ? db
        .query<MailMessageRecord, [string, string, number]>(
          "SELECT * FROM mail_messages WHERE connector_id = ? AND state = ? ORDER BY updated_at DESC, uid DESC LIMIT ?",
        )
        .all(connectorId, opts.state, limit)
    : db
        .query<MailMessageRecord, [string, number]>(
          "SELECT * FROM mail_messages WHERE connector_id = ? ORDER BY updated_at DESC, uid DESC LIMIT ?",
        )
        .all(connectorId, limit);
}

export function mailMessageCounts(db: Db, connectorId: string): Record<MailMessageState, number> {
  const out: Record<MailMessageState, number> = { claimed: 0, imported: 0, done: 0, failed: 0 };
  for (const r of db
    .query<{ state: MailMessageState; n: number }, [string]>(
      "SELECT state, COUNT(*) AS n FROM mail_messages WHERE connector_id = ? GROUP BY state",
    )
    .all(connectorId))
    out[r.state] = r.n;
  return out;
}
