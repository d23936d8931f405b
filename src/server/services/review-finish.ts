/**
 * What happens after a reviewer finishes: the workflow continues from the step after Review.
 *
 * For a transaction that completed before it was reviewed, that is the Export step again: the project's export
 * profiles run over the corrected results (JSON, CSV, XLSX, XML need no page images; PDF and JPG re-read the stored
 * source files) and the manifest is replaced. The core modules load lazily, as in queue/pipeline-runner.ts.
 */
import type { ResultsFile, SourceInput } from "../../core/model";
import { isoAt } from "../../core/clock";
import { replaceManifest } from "../../storage/files/export-files";
import { getProjectById } from "../../storage/projects/projects";
import * as tx from "../../storage/transactions/transactions";
import { clearExports, exportDirOf, readStoredSources } from "../../queue/transaction-load";
import { resumeWithReview } from "../../queue/review-resume";
import { loadRunState } from "../../storage/results/run-state";
import { storeSink } from "../../storage/files/store-sink";
import type { ServerDeps } from "../deps";

/** The transaction's stored source files (see queue/process-transaction.ts). */
export const storedSources = (deps: ServerDeps, transactionId: string): Promise<SourceInput[]> =>
  readStoredSources(deps.db, deps.blobs, transactionId);

/** Runs the project's export profiles again over `results` and replaces the transaction's export files. */
export async function reexport(deps: ServerDeps, t: tx.TransactionRecord, results: ResultsFile): Promise<void> {
  const [{ rerunExports }, { folderSink }, { parseProjectSettings }, { exportProfilesOf }] = await Promise.all([
    import("../../core/stages/export"),
    import("../../core/exporters/sink"),
    import("../../core/project"),
    import("../../core/workflow"),
  ]);
  const project = getProjectById(deps.db, t.project_id);
  const profiles = project ? exportProfilesOf(parseProjectSettings(project.settings)) : [];
  await clearExports(deps.blobs, deps.exportsRoot, t.transaction_id);
  const sink =
    deps.blobs.config.kind === "fs"
      ? folderSink(exportDirOf(deps.exportsRoot, t.transaction_id))
      : storeSink(deps.blobs, t.transaction_id);
  const manifest = await rerunExports({
    results,
    sources: await storedSources(deps, t.transaction_id),
    profiles,
    sink,
    now: () => new Date(deps.clock.now()),
  });
  deps.db.transaction(() => replaceManifest(deps.db, t.transaction_id, manifest)).immediate();
}

/**
 * A transaction paused at its Review step resumes from the next step with the reviewed documents (the stored run
 * state, queue/review-resume.ts); one reviewed after it completed gets its exports again. A transaction waiting
 * without a run stopped at Review (paused by an injected test runner) is exported and completed here.
 */
export async function continueAfterReview(
  deps: ServerDeps,
  t: tx.TransactionRecord,
  results: ResultsFile,
): Promise<void> {
  const saved = t.status === "awaiting_input" ? await loadRunState(deps.blobs, t.transaction_id) : null;
  if (saved && saved.stopped_after === "review") {
    await resumeWithReview(deps.db, deps.clock, deps.blobs, t.transaction_id, results);
    deps.wake();
    deps.notifier.emit(t.transaction_id);
    return;
  }
  await reexport(deps, t, results);
  if (t.status === "awaiting_input") {
    const seconds = t.started_at ? Math.max(0, (deps.clock.now() - Date.parse(t.started_at)) / 1000) : 0;
    tx.markCompleted(deps.db, t.transaction_id, isoAt(deps.clock), seconds);
  }
  deps.notifier.emit(t.transaction_id);
}
