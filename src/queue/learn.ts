/**
 * Where the server learns (docs/memory.md): a finished review, and a finished transaction of the `memory` dataset
 * that carries expected values in `metadata.expected` (the eval file shape). Playground transactions never teach.
 * Learning MUST NOT fail the transaction or the review: problems are logged and the memory is simply not stored.
 */
import { learnFromExpected, learnFromReview } from "../core/memory/from-results";
import { parseProjectSettings } from "../core/project";
import type { ReviewFinishedHook } from "../core/stages/review/hooks";
import { parseExpected } from "../eval/folder";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { addMemories } from "../storage/learning/memories";
import { getProjectById } from "../storage/projects/projects";
import { getReviewState } from "../storage/results/review-states";
import { getTransaction } from "../storage/transactions/transactions";
import type { FinishedOutcome } from "./transaction-job";

/** ProcessDeps.onFinished part: runs inside the status commit, so a stored memory and the status go together. */
export function learnOnFinished(db: Db, clock: Clock, outcome: FinishedOutcome, log?: (msg: string) => void): void {
  if (outcome.status !== "completed") return;
  const t = getTransaction(db, outcome.transaction_id);
  if (!t || t.dataset_id !== "memory" || t.metadata.expected === undefined) return;
  try {
    const project = getProjectById(db, t.project_id);
    const results = getReviewState(db, t.transaction_id)?.results;
    if (!project || !results) return;
    const memories = learnFromExpected(
      results,
      parseExpected(t.metadata.expected),
      parseProjectSettings(project.settings),
      new Date(clock.now()),
    );
    addMemories(db, t.project_id, memories, isoAt(clock));
  } catch (err) {
    log?.(`transaction ${t.transaction_id}: nothing learned: ${(err as Error).message}`);
  }
}

/** The review hook: confirmed fields of a finished review teach the project (not in the playground). */
export function learnFromReviewHook(db: Db, clock: Clock): ReviewFinishedHook {
  return (event) => {
    const t = getTransaction(db, event.transaction_id);
    if (!t || t.dataset_id === "playground") return;
    const project = getProjectById(db, event.project_id);
    if (!project) return;
    const memories = learnFromReview(
      event.results,
      parseProjectSettings(project.settings),
      "review",
      new Date(clock.now()),
    );
    db.transaction(() => addMemories(db, event.project_id, memories, isoAt(clock))).immediate();
  };
}
