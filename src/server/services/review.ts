/**
 * Human review over HTTP (docs/review.md): what a reviewer sees, and the corrections they send.
 *
 * Contracts:
 * - Reads and writes are allowed while the transaction is `awaiting_input` (the workflow waits at its Review step)
 *   or `completed` (a correction after the fact re-runs the exports). Other states answer 400.
 * - A write MUST name the `version` it is based on; a stale one is refused with 409 (`stale_version`) and nothing
 *   is written. Read, apply and write happen in ONE immediate SQLite transaction, so concurrent reviewers serialise.
 * - Every write mirrors the reviewed documents into the documents/fields/index rows in the same transaction.
 * - `finishReview` is the one place a review ends: results stored → hooks (`deps.onReviewFinished`) → the workflow
 *   continues (or, for a completed transaction, the exports are re-run).
 */
import { DocprocError } from "../../core/errors";
import type { ResultsFile } from "../../core/model";
import { parseProjectSettings, type ProjectSettings } from "../../core/project";
import {
  applyReviewAction,
  newReviewState,
  parseReviewAction,
  type ReviewState,
  type Reviewer,
} from "../../core/stages/review/actions";
import { announceReviewFinished } from "../../core/stages/review/hooks";
import { buildReviewView } from "../../core/stages/review/view";
import type { Principal } from "../../auth/principal";
import { isoAt } from "../../core/clock";
import { listDocuments } from "../../storage/transactions/documents";
import { listPages } from "../../storage/transactions/pages";
import { getProjectById } from "../../storage/projects/projects";
import { replaceDocuments } from "../../storage/results/result-store";
import { getReviewState, saveReviewState, storeReviewResults } from "../../storage/results/review-states";
import { listSourceFiles } from "../../storage/files/source-files";
import { getTransaction, type TransactionRecord } from "../../storage/transactions/transactions";
import type { ServerDeps } from "../deps";
import { continueAfterReview } from "./review-finish";

const REVIEWABLE = new Set(["awaiting_input", "completed"]);

export function reviewerOf(p: Principal): Reviewer {
  if (p.kind === "admin") return { id: "admin", kind: "admin" };
  if (p.kind === "session") return { id: p.username ?? p.userId ?? "user", kind: "user" };
  return { id: p.clientId ?? p.keyId ?? "client", kind: "client" };
}

function requireReviewable(t: TransactionRecord): void {
  if (!REVIEWABLE.has(t.status)) {
    throw new DocprocError(
      "conflict",
      `Transaction ${t.transaction_id} is ${t.status}: only transactions in awaiting_input or completed can be reviewed`,
    );
  }
}

function projectOf(deps: ServerDeps, t: TransactionRecord): ProjectSettings {
  const project = getProjectById(deps.db, t.project_id);
  if (!project) throw new DocprocError("not_found", `project ${t.project_id} no longer exists`);
  return parseProjectSettings(project.settings);
}

/** The stored state; a transaction stored before review existed gets one built from its rows (no page words). */
function stateOf(deps: ServerDeps, t: TransactionRecord): ReviewState {
  const stored = getReviewState(deps.db, t.transaction_id);
  if (stored) return stored;
  const results: ResultsFile = {
    transaction_id: t.transaction_id,
    tenant_id: t.tenant_id,
    project_id: t.project_id,
    transaction: {
      exported_at: t.completed_at ?? t.updated_at,
      created_at: t.created_at,
      source_file_names: listSourceFiles(deps.db, t.transaction_id).map((f) => f.filename),
      project_version: t.project_version ?? 1,
      correlation_id: t.correlation_id,
      source: t.source,
      metadata: t.metadata,
      last_human_review: { reviewed: false },
    },
    validation: { overall_status: "success", transaction_rule_results: [] },
    documents: listDocuments(deps.db, t.transaction_id),
    pages: listPages(deps.db, t.transaction_id).map(({ source_file_index: _i, ...p }) => ({
      ...p,
      words: [],
      text: "",
    })),
  };
  storeReviewResults(deps.db, t.transaction_id, results, isoAt(deps.clock));
  return getReviewState(deps.db, t.transaction_id) ?? newReviewState(results);
}

/** What the review page needs: documents with fields and boxes, pages with words and image URLs, the project's classes. */
export function reviewView(deps: ServerDeps, t: TransactionRecord) {
  requireReviewable(t);
  const state = deps.db.transaction(() => stateOf(deps, t)).immediate();
  return buildReviewView(state, projectOf(deps, t), { status: t.status, review_metadata: t.review_metadata });
}

/** The version a write is based on: `version` in the body, or an `If-Match` header. */
export function expectedVersionOf(body: unknown, ifMatch: string | null): number {
  const fromBody = (body as { version?: unknown } | null)?.version;
  const raw = fromBody ?? (ifMatch ? ifMatch.replace(/^W\//, "").replace(/"/g, "") : undefined);
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new DocprocError(
      "invalid_input",
      "version: the review version the change is based on is required (an integer from GET .../review)",
    );
  return n;
}

/** Applies one reviewer action; a `finish` continues the workflow once the corrected results are stored. */
export async function applyReview(
  deps: ServerDeps,
  t: TransactionRecord,
  principal: Principal,
  body: unknown,
  ifMatch: string | null,
) {
  requireReviewable(t);
  const expected = expectedVersionOf(body, ifMatch);
  const { version: _v, ...rest } = (body ?? {}) as Record<string, unknown>;
  const action = parseReviewAction(rest);
  const project = projectOf(deps, t);
  const reviewer = reviewerOf(principal);
  const next = deps.db
    .transaction(() => {
      const state = stateOf(deps, t);
      if (state.version !== expected) {
        throw new DocprocError(
          "stale_version",
          `The review of ${t.transaction_id} changed since version ${expected} (now ${state.version}): reload it and apply your change again`,
          { details: { current_version: state.version } },
        );
      }
      const updated = applyReviewAction(state, action, { project, reviewer, now: new Date(deps.clock.now()) });
      if (!saveReviewState(deps.db, t.transaction_id, expected, updated, isoAt(deps.clock))) {
        throw new DocprocError(
          "stale_version",
          `The review of ${t.transaction_id} changed meanwhile: reload it and apply your change again`,
        );
      }
      replaceDocuments(deps.db, t.transaction_id, updated.results.documents);
      return updated;
    })
    .immediate();
  if (action.action === "finish") await finishReview(deps, t, next, reviewer);
  // After a finish the workflow has moved on (queued, processing or completed): the answer shows where it is.
  const now = getTransaction(deps.db, t.transaction_id) ?? t;
  return buildReviewView(getReviewState(deps.db, t.transaction_id) ?? next, project, {
    status: now.status,
    review_metadata: now.review_metadata,
  });
}

/**
 * THE place a review ends (docs/review.md). The corrected results are stored when this runs; the hooks see them
 * first (learning from confirmed documents attaches to `deps.onReviewFinished`), then the workflow continues.
 */
export async function finishReview(
  deps: ServerDeps,
  t: TransactionRecord,
  state: ReviewState,
  reviewer: Reviewer,
): Promise<void> {
  await announceReviewFinished(
    deps.onReviewFinished ?? [],
    {
      transaction_id: t.transaction_id,
      tenant_id: t.tenant_id,
      project_id: t.project_id,
      reviewer,
      finished_at: state.finished_at ?? isoAt(deps.clock),
      results: state.results,
      history: state.history,
    },
    (err) => console.error(`review of ${t.transaction_id}: a review-finished hook failed:`, err),
  );
  await continueAfterReview(deps, t, state.results);
}
