/**
 * Capture token lifecycle (spec "Capture token lifecycle"; docs/capture.md). No HTTP types.
 *
 *   issued  --first scan-->  active  --submit-->  consumed
 *   issued/active  --deadline passes-->  expired
 *
 * - Minting MUST return the token once and store only its SHA-256; the transaction id is allocated but the
 *   transaction row MUST NOT exist before submit (its status answers 404 until then).
 * - `expires_at` (reported at minting) = issued_at + ttl: an unscanned code expires then. The first scan opens the
 *   active window of ttl seconds (so it may end after `expires_at`, at most issued_at + 2·ttl).
 * - A consumed or expired token MUST never move again; expiry is applied lazily, by the first read past the deadline.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { DocprocError } from "../core/errors";
import type { Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import * as store from "../storage/auth/capture-tokens";
import type { CaptureSettings } from "./settings";

export interface CaptureContext {
  db: Db;
  clock: Clock;
  settings: CaptureSettings;
}

/** Who mints: an API key (acted for at submit) or the admin key (identified by its digest). */
export type Minter =
  | { kind: "api_key"; keyId: string; clientId: string | null }
  | { kind: "admin"; adminKeyHash: string };

export interface MintInput {
  dataset_id: "production" | "playground";
  reviewer_id?: string | null;
  page_limit?: number | null;
  ttl_seconds?: number;
  label?: string | null;
}

export interface MintedToken {
  token: string;
  transaction_id: string;
  expires_at: string;
  max_pages: number;
  ttl_seconds: number;
  dataset_id: string;
  label: string | null;
}

/** Prefix makes a leaked token recognisable; 32 random bytes (256 bits) make it unguessable. */
export const CAPTURE_TOKEN_PREFIX = "dp_cap_";

export const hashCaptureToken = (token: string) => createHash("sha256").update(token).digest("hex");

const iso = (ms: number) => new Date(ms).toISOString();

/** Tokens are kept this long after their last possible use, so integrations can still read their state. */
export const CAPTURE_TOKEN_RETENTION_MS = 30 * 24 * 3600_000;

export function mintCaptureToken(
  ctx: CaptureContext,
  minter: Minter,
  tenantId: string,
  projectId: string,
  input: MintInput,
): MintedToken {
  const { settings } = ctx;
  const ttl = input.ttl_seconds ?? settings.defaultTtlSeconds;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > settings.maxTtlSeconds) {
    throw new DocprocError(
      "invalid_input",
      `ttl_seconds: must be an integer from 1 to ${settings.maxTtlSeconds}, got ${ttl}`,
    );
  }
  const pageLimit = input.page_limit ?? null;
  if (pageLimit !== null && (!Number.isInteger(pageLimit) || pageLimit < 1 || pageLimit > settings.maxPageLimit)) {
    throw new DocprocError(
      "invalid_input",
      `page_limit: must be an integer from 1 to ${settings.maxPageLimit}, got ${pageLimit}`,
    );
  }
  const token = CAPTURE_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const now = ctx.clock.now();
  store.deleteCaptureTokensBefore(ctx.db, now - CAPTURE_TOKEN_RETENTION_MS); // housekeeping where tokens are made
  const rec = store.insertCaptureToken(ctx.db, {
    token_hash: hashCaptureToken(token),
    transaction_id: randomUUID(),
    tenant_id: tenantId,
    project_id: projectId,
    dataset_id: input.dataset_id,
    reviewer_id: input.reviewer_id ?? null,
    page_limit: pageLimit,
    max_pages: pageLimit ?? settings.defaultMaxPages,
    ttl_seconds: ttl,
    label: input.label ?? null,
    minted_by: minter.kind,
    key_id: minter.kind === "api_key" ? minter.keyId : null,
    client_id: minter.kind === "api_key" ? minter.clientId : null,
    admin_key_hash: minter.kind === "admin" ? minter.adminKeyHash : null,
    issued_at: now,
    expires_at: now + ttl * 1000,
  });
  return {
    token,
    transaction_id: rec.transaction_id,
    expires_at: iso(rec.expires_at),
    max_pages: rec.max_pages,
    ttl_seconds: ttl,
    dataset_id: rec.dataset_id,
    label: rec.label,
  };
}

/** Thrown for a token that exists but can no longer be used; `details.capture_state` says why. */
export function stateError(rec: store.CaptureTokenRecord): DocprocError {
  const messages: Record<store.CaptureState, string> = {
    issued: "This capture code has not been opened yet: open the capture page first",
    active: "This capture code is active",
    consumed: "This capture code has already been used: the documents were received. Ask for a new code to send more.",
    expired: "This capture code has expired. Ask for a new code.",
  };
  return new DocprocError("conflict", messages[rec.state], {
    details: { capture_state: rec.state, transaction_id: rec.transaction_id },
  });
}

/** The record with expiry applied as of now; `not_found` for an unknown token. */
export function currentToken(ctx: CaptureContext, token: string): store.CaptureTokenRecord {
  const hash =
    typeof token === "string" && token.startsWith(CAPTURE_TOKEN_PREFIX) && token.length < 200
      ? hashCaptureToken(token)
      : null;
  const rec = hash ? store.getCaptureToken(ctx.db, hash) : null;
  if (!rec)
    throw new DocprocError(
      "not_found",
      "Unknown capture code: check that the whole link was opened, or ask for a new code",
    );
  if (store.expireCaptureToken(ctx.db, rec.token_hash, ctx.clock.now()))
    return store.getCaptureToken(ctx.db, rec.token_hash)!;
  return rec;
}

export interface CaptureSession {
  state: "active";
  transaction_id: string;
  max_pages: number;
  /** When the active window ends. */
  expires_at: string;
  seconds_left: number;
  /** Milliseconds until the window ends, as of this answer (the page counts down from it, not from its own clock). */
  expires_in_ms: number;
}

/**
 * The page reports a scan: issued → active (the window starts now), or the same session again for an active
 * token (a reload). Consumed and expired tokens throw `stateError`.
 */
export function openCaptureSession(ctx: CaptureContext, token: string): CaptureSession {
  let rec = currentToken(ctx, token);
  if (rec.state === "issued") {
    store.activateCaptureToken(ctx.db, rec.token_hash, ctx.clock.now());
    rec = currentToken(ctx, token); // a concurrent scan or an expiry may have won; either way this is the truth
  }
  if (rec.state !== "active") throw stateError(rec);
  return sessionOf(ctx, rec);
}

export function sessionOf(ctx: CaptureContext, rec: store.CaptureTokenRecord): CaptureSession {
  return {
    state: "active",
    transaction_id: rec.transaction_id,
    max_pages: rec.max_pages,
    expires_at: iso(rec.deadline_at),
    seconds_left: Math.max(0, Math.floor((rec.deadline_at - ctx.clock.now()) / 1000)),
    expires_in_ms: Math.max(0, rec.deadline_at - ctx.clock.now()),
  };
}

/** What the minting integration may read about its token (never the token itself). */
export function describeCaptureToken(ctx: CaptureContext, tenantId: string, projectId: string, transactionId: string) {
  const found = store.getCaptureTokenByTransaction(ctx.db, transactionId);
  if (!found || found.tenant_id !== tenantId || found.project_id !== projectId) {
    throw new DocprocError(
      "not_found",
      `Capture token for transaction ${transactionId} not found in project ${projectId}`,
    );
  }
  store.expireCaptureToken(ctx.db, found.token_hash, ctx.clock.now());
  const rec = store.getCaptureToken(ctx.db, found.token_hash)!;
  const at = (ms: number | null) => (ms === null ? null : iso(ms));
  return {
    transaction_id: rec.transaction_id,
    state: rec.state,
    issued_at: iso(rec.issued_at),
    expires_at: iso(rec.expires_at),
    scanned_at: at(rec.scanned_at),
    window_ends_at: rec.state === "active" || rec.scanned_at !== null ? iso(rec.deadline_at) : null,
    consumed_at: at(rec.consumed_at),
    expired_at: at(rec.expired_at),
    max_pages: rec.max_pages,
    page_limit: rec.page_limit,
    dataset_id: rec.dataset_id,
    label: rec.label,
  };
}
