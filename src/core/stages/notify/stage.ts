import { pushAll } from "../../arrays";
import { DocprocError } from "../../errors";
import type { Stage } from "../types";

/** A Notification node: its `reached` delivery with the manifest as it is now (empty before Export). */
export const notifyStage: Stage = async (state, ctx) => {
  const activity = ctx.step.activity;
  if (!activity) return; // an unconfigured node (no webhook_url yet) sends nothing
  const res = await ctx.notify({ event: "reached", step: { ...ctx.step, activity }, manifest: state.manifest });
  if (res?.warnings) pushAll(state.warnings, res.warnings);
  if (res?.failWorkflow) throw new DocprocError("delivery_failed", res.failWorkflow, { stage: "notify" });
};
