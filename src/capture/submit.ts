/**
 * Submitting a capture: the phone's files become the pre-allocated transaction, and processing starts.
 *
 * - The capture MUST act with exactly the transaction.create permission of the key that minted the token (spec
 *   authentication rule 4): a revoked key, a key that lost transaction.create (or a workflow step permission), or
 *   a key now in another tenant makes the submit fail. The admin key acts only while it is still the admin key.
 * - Files MUST pass the server-side rules (capture/files.ts) before anything is stored.
 * - Consuming the token, creating the transaction, recording its files and queueing it MUST be one SQLite write
 *   transaction: either the token is consumed and the work is queued, or nothing happened (a full queue leaves
 *   the token usable). Of two concurrent submits exactly one wins.
 */
import { DocprocError } from "../core/errors";
import type { ProjectSettings } from "../core/project";
import { stepEnabled } from "../core/workflow";
import type { Guard } from "../auth/guard";
import type { Principal } from "../auth/principal";
import { STEP_PERMISSIONS } from "../auth/permissions";
import { submitTransaction } from "../queue/submit";
import type { BlobStore } from "../storage/files/blobs";
import { consumeCaptureToken, getCaptureToken, type CaptureTokenRecord } from "../storage/auth/capture-tokens";
import { getProject } from "../storage/projects/projects";
import { addSourceFile } from "../storage/files/source-files";
import * as tx from "../storage/transactions/transactions";
import { inspectCapture, type CapturedFile, type InspectedFile } from "./files";
import { currentToken, stateError, type CaptureContext } from "./tokens";

export interface SubmitContext extends CaptureContext {
  blobs: BlobStore;
  /** The access guard: resolves the minting key now, and charges the submission to its task budget. */
  guard: Pick<Guard, "principalOfKeyId" | "chargeSubmission">;
  /** sha256 hex of the current admin key. */
  adminKeyHash: string;
  maxQueueDepth: number;
  maxFileBytes: number;
  maxFiles: number;
  wake(): void;
}

export interface CaptureSubmission {
  transaction_id: string;
  status: "processing";
  file_count: number;
  page_count: number;
}

/** The minting key's principal as of now, or a 403 saying why the capture may no longer act for it. */
function actingPrincipal(ctx: SubmitContext, rec: CaptureTokenRecord): Principal | null {
  if (rec.minted_by === "admin") {
    if (rec.admin_key_hash !== ctx.adminKeyHash)
      throw new DocprocError("forbidden", "The key that created this capture code is no longer valid");
    return null;
  }
  const p = rec.key_id ? ctx.guard.principalOfKeyId(rec.key_id) : null;
  if (!p) throw new DocprocError("forbidden", "The key that created this capture code has been revoked");
  if (p.tenantId !== rec.tenant_id)
    throw new DocprocError("forbidden", "The key that created this capture code no longer belongs to this tenant");
  if (!p.permissions.has("transaction.create"))
    throw new DocprocError("forbidden", "The key that created this capture code no longer holds transaction.create");
  const project = getProject(ctx.db, rec.tenant_id, rec.project_id);
  const raw = (project?.settings ?? {}) as Partial<ProjectSettings>;
  const workflow = { workflow: Array.isArray(raw.workflow) ? raw.workflow : [] } as ProjectSettings;
  const missing = STEP_PERMISSIONS.find((s) => stepEnabled(workflow, s) && !p.permissions.has(s));
  if (missing)
    throw new DocprocError(
      "forbidden",
      `The key that created this capture code lacks the ${missing} permission the project's workflow needs`,
    );
  return p;
}

function checkSizes(ctx: SubmitContext, files: CapturedFile[]): void {
  if (files.length === 0)
    throw new DocprocError("invalid_input", "No files: add at least one photo or PDF (multipart field `files`)");
  if (files.length > ctx.maxFiles)
    throw new DocprocError("too_large", `Too many files: ${files.length}, at most ${ctx.maxFiles}`);
  const big = files.find((f) => f.data.byteLength > ctx.maxFileBytes);
  if (big)
    throw new DocprocError(
      "too_large",
      `${big.filename} is ${big.data.byteLength} bytes; the limit is ${ctx.maxFileBytes} bytes per file`,
    );
}

export async function submitCapture(
  ctx: SubmitContext,
  token: string,
  files: CapturedFile[],
): Promise<CaptureSubmission> {
  const rec = currentToken(ctx, token);
  if (rec.state !== "active") throw stateError(rec);
  if (!getProject(ctx.db, rec.tenant_id, rec.project_id))
    throw new DocprocError("not_found", `Project ${rec.project_id} no longer exists`);
  const principal = actingPrincipal(ctx, rec);
  checkSizes(ctx, files);
  const inspected = await inspectCapture(files, rec.max_pages);
  if (principal) ctx.guard.chargeSubmission(principal);
  const hashes = await Promise.all(inspected.map((f) => ctx.blobs.put(f.data)));
  commit(ctx, rec, inspected, hashes);
  ctx.wake();
  return {
    transaction_id: rec.transaction_id,
    status: "processing",
    file_count: inspected.length,
    page_count: inspected.reduce((n, f) => n + f.pages, 0),
  };
}

function commit(ctx: SubmitContext, rec: CaptureTokenRecord, files: InspectedFile[], hashes: string[]): void {
  const { db } = ctx;
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  db.transaction(() => {
    if (!consumeCaptureToken(db, rec.token_hash, nowMs)) {
      // Another submit won, or the window closed while the files were checked.
      const latest = getCaptureToken(db, rec.token_hash)!;
      throw stateError(latest.state === "active" ? { ...latest, state: "expired" } : latest);
    }
    tx.createTransaction(db, {
      transaction_id: rec.transaction_id,
      tenant_id: rec.tenant_id,
      project_id: rec.project_id,
      dataset_id: rec.dataset_id,
      page_limit: rec.page_limit,
      source: "capture",
      metadata: {},
      request: {
        capture: {
          label: rec.label,
          reviewer_id: rec.reviewer_id,
          max_pages: rec.max_pages,
          minted_by: rec.minted_by,
          client_id: rec.client_id,
        },
        source_files: files.map((f) => ({
          filename: f.filename,
          content_type: f.content_type,
          size: f.data.byteLength,
          pages: f.pages,
        })),
      },
      now,
    });
    files.forEach((f, i) =>
      addSourceFile(db, {
        transaction_id: rec.transaction_id,
        filename: f.filename,
        content_type: f.content_type,
        size: f.data.byteLength,
        blob_hash: hashes[i]!,
        split_policy: "inherit",
        now,
      }),
    );
    submitTransaction(db, ctx.clock, rec.transaction_id, { maxDepth: ctx.maxQueueDepth });
  }).immediate();
}
