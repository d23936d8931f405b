/**
 * The one place a finished review is announced (docs/review.md, "Learning from reviews").
 *
 * `ReviewFinishedHook` is called once per finished review, by the server (src/server/services/review.ts,
 * `finishReview`) and by `docproc review` (src/cli/review-folder.ts), AFTER the corrected results are stored and
 * BEFORE the workflow continues. `results` is the final, confirmed results file (fields with `is_confirmed`,
 * `classification.confirmed`, boxes, page words); `history` lists every change with who made it.
 * A hook MUST NOT throw to veto the review: its errors are logged and the review finishes anyway.
 */
import type { ResultsFile } from "../../model";
import type { ReviewEntry, Reviewer } from "./schema";

export interface ReviewFinishedEvent {
  transaction_id: string;
  tenant_id: string;
  project_id: string;
  reviewer: Reviewer;
  finished_at: string;
  results: ResultsFile;
  history: ReviewEntry[];
}

export type ReviewFinishedHook = (event: ReviewFinishedEvent) => void | Promise<void>;

/** Runs the hooks one after another; a failing hook is reported through `onError`, never rethrown. */
export async function announceReviewFinished(
  hooks: readonly ReviewFinishedHook[],
  event: ReviewFinishedEvent,
  onError: (err: unknown) => void,
): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook(event);
    } catch (err) {
      onError(err);
    }
  }
}
