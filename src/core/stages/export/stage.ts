/** The Export Stage: the results file of the run as it is now, written by every export profile. */
import { runExports } from "../../exporters";
import { exportProfilesOf } from "../../workflow";
import { resultsOf } from "../run-state";
import type { Stage } from "../types";

export const exportStage: Stage = async (state, ctx) => {
  ctx.progress("export", 0, 1);
  const profiles = ctx.profiles ?? exportProfilesOf(ctx.project);
  // One instant for the results and every file written from them: two reads of the clock a millisecond apart gave
  // the outcome and the exported file different `exported_at`s.
  const at = ctx.now();
  const now = () => at;
  const results = resultsOf(state, { meta: ctx.meta, now });
  state.exported = results;
  state.manifest = await runExports(
    { results, pages: state.pages, sources: state.sources, sink: ctx.sink, now, signal: ctx.signal },
    profiles,
  );
  ctx.progress("export", 1, 1);
  for (const [id, entry] of Object.entries(state.manifest.profiles)) {
    if (entry.error)
      state.errors.push({ stage: "export", code: "export_failed", message: `profile ${id}: ${entry.error}` });
  }
};
