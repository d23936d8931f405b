/**
 * `processTransaction`: one transaction through the whole workflow, for callers that want a result or an exception
 * (tests, benchmarks, the export rerun). It is the transaction runner (src/core/runner) without pause, resume or
 * notifications: the entry points (CLI process, watch, queue worker) use `runTransaction` directly.
 *
 * MUST throw the run's `DocprocError` when the run fails (its `stage` names the stage that failed).
 */
import type { TransactionInput } from "./model";
import { runTransaction } from "./runner/run";
import type { RunOptions, RunOutcome } from "./runner/types";

export type { TransactionMeta } from "./results";
export { analyseAfterReading } from "./stages/split/stage";

/** What a run needs, without the runner's pause, resume and notification hooks (one definition: RunOptions). */
export type PipelineContext = Pick<
  RunOptions,
  "meta" | "project" | "ocr" | "sink" | "onProgress" | "signal" | "password" | "profiles" | "now"
>;

/**
 * The runner's outcome (`RunOutcome`, the one run result every adapter gets) of a run that cannot pause: a
 * checkpoint is never requested here and a paused run counts as partial.
 */
export async function processTransaction(
  input: TransactionInput,
  ctx: PipelineContext,
): Promise<RunOutcome & { status: "success" | "partial" | "failure" }> {
  const out = await runTransaction(input, ctx);
  if (out.status === "failure" && out.error) throw out.error;
  // A checkpoint request is never passed here, so `interrupted` cannot occur; it would count as partial.
  const status = out.status === "awaiting_input" || out.status === "interrupted" ? "partial" : out.status;
  return { ...out, status };
}
