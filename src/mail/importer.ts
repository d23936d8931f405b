/**
 * One poll of one connector's folder: every matching message not yet imported becomes one transaction, submitted
 * through the same path as the API (`submitTransaction`), then the after-import action runs.
 *
 * Exactly once, across restarts, crashes and several connector processes:
 * - a message is worked on only under a claim in the ledger (storage/mail/mail-messages.ts), keyed by UIDVALIDITY + UID;
 * - the transaction, its source files, its queue job and the ledger's `imported` row (with the Message-ID) are one
 *   SQLite write transaction, fenced by the claim token: a crash before it leaves nothing, a crash after it leaves
 *   an `imported` row whose next claim only runs the mailbox action;
 * - the mailbox action (seen, move, delete) runs only after that commit, so it can never hide an unimported message;
 * - a message whose Message-ID (or content hash) was imported before under another UID is recorded as a duplicate
 *   of that transaction, not imported again.
 * A message that cannot be imported (unreadable, too large, too many parts) is recorded `failed` with the reason and
 * left in the mailbox untouched; it is retried on later polls up to `maxAttempts`.
 */
import { randomUUID } from "node:crypto";
import type { ImapFlow } from "imapflow";
import { DocprocError } from "../core/errors";
import type { BlobStore } from "../storage/files/blobs";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import type { MailConnectorRecord } from "../storage/mail/mail-connectors";
import * as ledger from "../storage/mail/mail-messages";
import { describe } from "./imap";
import { afterImport, ensureFolder, fetchAndParse, searchOf } from "./imap-actions";
import { commitImport } from "./import-commit";
import type { ParsedMail } from "./message";
import type { ConnectionSettings } from "./settings";
import { wholeBytes } from "../core/source-data";

/** Named moments of an import, for crash tests (a hook may SIGKILL its own process there). */
export type ImportPoint = "claimed" | "committed" | "actioned";

export interface MailContext {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  maxQueueDepth: number;
  maxFileBytes: number;
  maxFiles: number;
  /** How long a claim holds a message; a crashed process's messages are taken over after it. */
  leaseMs: number;
  /** Failed imports of one message before it is left alone (still reported). */
  maxAttempts: number;
  /** Wakes an in-process worker pool after a transaction was queued. */
  wake(): void;
  log(msg: string): void;
  at?(point: ImportPoint, uid: number): void | Promise<void>;
  /** Stops a poll between two messages (a message in progress is finished). */
  signal?: AbortSignal;
}

export interface PollReport {
  connector_id: string;
  uid_validity: number;
  matched: number;
  imported: Array<{ uid: number; transaction_id: string }>;
  duplicates: Array<{ uid: number; transaction_id: string }>;
  failed: Array<{ uid: number; error: string }>;
  /** The queue was full: the rest waits for the next poll. */
  queue_full: boolean;
}

export async function pollMailbox(
  ctx: MailContext,
  connector: MailConnectorRecord,
  s: ConnectionSettings,
  client: ImapFlow,
): Promise<PollReport> {
  const box = await client.mailboxOpen(s.folder);
  const uidValidity = Number(box.uidValidity);
  if (s.after_import.action === "move") await ensureFolder(client, s.after_import.folder!);
  const report: PollReport = {
    connector_id: connector.connector_id,
    uid_validity: uidValidity,
    matched: 0,
    imported: [],
    duplicates: [],
    failed: [],
    queue_full: false,
  };
  const uids = ((await client.search(searchOf(s), { uid: true })) || []).sort((a, b) => a - b);
  report.matched = uids.length;
  const known = ledger.statesOf(ctx.db, connector.connector_id, uidValidity);
  await settleGone(ctx, client, connector.connector_id, uidValidity, known, new Set(uids));
  for (const uid of uids) {
    if (ctx.signal?.aborted) break; // shutting down: the rest waits for the next poll
    const k = known.get(uid);
    if (k && (k.state === "done" || (k.state === "failed" && k.attempts >= ctx.maxAttempts))) continue;
    const outcome = await importOne(ctx, connector, s, client, {
      connector_id: connector.connector_id,
      uid_validity: uidValidity,
      uid,
    });
    if (outcome === "queue_full") {
      report.queue_full = true;
      break;
    }
    if (outcome?.kind === "imported") report.imported.push({ uid, transaction_id: outcome.transaction_id });
    if (outcome?.kind === "duplicate") report.duplicates.push({ uid, transaction_id: outcome.transaction_id });
    if (outcome?.kind === "failed") report.failed.push({ uid, error: outcome.error });
  }
  return report;
}

type Outcome =
  | { kind: "imported" | "duplicate" | "actioned"; transaction_id: string }
  | { kind: "failed"; error: string }
  | "queue_full"
  | null;

async function importOne(
  ctx: MailContext,
  c: MailConnectorRecord,
  s: ConnectionSettings,
  client: ImapFlow,
  key: ledger.MessageKey,
): Promise<Outcome> {
  const token = randomUUID();
  const nowMs = ctx.clock.now();
  const prev = ledger.claimMailMessage(ctx.db, key, {
    token,
    untilMs: nowMs + ctx.leaseMs,
    nowMs,
    now: isoAt(ctx.clock),
    maxAttempts: ctx.maxAttempts,
  });
  if (prev === null) return null;
  await ctx.at?.("claimed", key.uid);
  if (prev === "imported")
    return finish(ctx, s, client, key, token, ledger.getMailMessage(ctx.db, key)!.transaction_id!, "actioned");
  let parsed: ParsedMail;
  try {
    parsed = await fetchAndParse(ctx, s, client, key.uid);
  } catch (err) {
    if (err instanceof DocprocError) return fail(ctx, key, token, err.message);
    ledger.releaseMailMessage(ctx.db, key, token, describe(err), isoAt(ctx.clock));
    throw err; // the connection, not the message: the poll ends and the runner reconnects later
  }
  let committed: { transaction_id: string; duplicate: boolean };
  try {
    const hashes = await Promise.all(parsed.sources.map((src) => ctx.blobs.put(wholeBytes(src.data))));
    committed = commitImport(ctx, c, s, key, token, parsed, hashes);
  } catch (err) {
    if (err instanceof DocprocError && err.code === "queue_full") {
      ledger.releaseMailMessage(ctx.db, key, token, err.message, isoAt(ctx.clock));
      return "queue_full";
    }
    if (err instanceof DocprocError && err.code === "conflict") return null; // lease lost: another process has it
    return fail(ctx, key, token, err instanceof Error ? err.message : String(err), parsed);
  }
  if (!committed.duplicate) ctx.wake();
  await ctx.at?.("committed", key.uid);
  return finish(ctx, s, client, key, token, committed.transaction_id, committed.duplicate ? "duplicate" : "imported");
}

async function finish(
  ctx: MailContext,
  s: ConnectionSettings,
  client: ImapFlow,
  key: ledger.MessageKey,
  token: string,
  transactionId: string,
  kind: "imported" | "duplicate" | "actioned",
): Promise<Outcome> {
  try {
    await afterImport(s, client, key.uid);
  } catch (err) {
    // Imported all the same: the row stays `imported` and the next poll retries only the action.
    const error = `after-import action ${s.after_import.action} failed: ${describe(err)}`;
    ledger.releaseMailMessage(ctx.db, key, token, error, isoAt(ctx.clock));
    ctx.log(`mail ${key.connector_id}: uid ${key.uid}: ${error}`);
    throw err;
  }
  await ctx.at?.("actioned", key.uid);
  ledger.recordDone(ctx.db, key, token, isoAt(ctx.clock));
  return { kind, transaction_id: transactionId };
}

function fail(ctx: MailContext, key: ledger.MessageKey, token: string, error: string, p?: ParsedMail): Outcome {
  const f = p?.facts;
  ledger.recordFailed(ctx.db, key, token, error, isoAt(ctx.clock), {
    message_id: f?.message_id ?? null,
    subject: f?.subject ?? null,
    from_address: f?.from ?? null,
  });
  ctx.log(`mail ${key.connector_id}: uid ${key.uid} not imported (left in the mailbox): ${error}`);
  return { kind: "failed", error };
}

/**
 * An `imported` row whose message is no longer in the folder (the process died after a move or delete, or someone
 * moved it by hand): its transaction exists and there is nothing left to act on, so it is done.
 */
async function settleGone(
  ctx: MailContext,
  client: ImapFlow,
  connectorId: string,
  uidValidity: number,
  known: Map<number, { state: string }>,
  matched: Set<number>,
) {
  const pending = [...known].filter(([uid, k]) => k.state === "imported" && !matched.has(uid)).map(([uid]) => uid);
  if (pending.length === 0) return;
  const present = new Set((await client.search({ all: true }, { uid: true })) || []);
  for (const uid of pending.filter((u) => !present.has(u))) {
    const key = { connector_id: connectorId, uid_validity: uidValidity, uid };
    const token = randomUUID();
    const nowMs = ctx.clock.now();
    if (
      ledger.claimMailMessage(ctx.db, key, {
        token,
        untilMs: nowMs + ctx.leaseMs,
        nowMs,
        now: isoAt(ctx.clock),
        maxAttempts: ctx.maxAttempts,
      }) === "imported"
    ) {
      ledger.recordDone(ctx.db, key, token, isoAt(ctx.clock));
      known.set(uid, { state: "done" });
    } else ledger.releaseMailMessage(ctx.db, key, token, null, isoAt(ctx.clock));
  }
}
