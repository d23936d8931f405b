/**
 * Webhook notifications for `docproc process` (docs/webhooks.md, "The CLI"). The CLI has no queue, so each
 * transaction's deliveries run inline after its pipeline, with the activity's full retry policy (a blocking loop:
 * a file with a failing receiver takes up to the sum of its backoffs longer).
 *
 * MUST cost nothing when the project has no enabled, configured Notification step. A delivery that finally fails is
 * a `notification …` warning of the file; with `fail_workflow_on_error` it turns the file into a failure
 * (`delivery_failed`, stage `notify`). A pipeline that throws still sends `transaction.failed`, then rethrows.
 */
import { DocprocError, wrapStageError } from "../core/errors";
import type { TransactionInput } from "../core/model";
import type { PipelineContext, PipelineResult } from "../core/pipeline";
import type { ProjectSettings } from "../core/project";
import { notificationNodes } from "../core/stages/notify";
import { notifyFinished } from "../batch/notify-run";

export type ProcessFn = (input: TransactionInput, ctx: PipelineContext) => Promise<PipelineResult>;

const describe = (result: PipelineResult) => result.errors.map((e) => e.message).join("; ") || "processing failed";

export function notifyingProcess(project: ProjectSettings, inner: ProcessFn): ProcessFn {
  if (notificationNodes(project.workflow).length === 0) return inner;
  return async (input, ctx) => {
    const ref = { tenant_id: ctx.meta.tenant_id, project_id: ctx.meta.project_id, transaction_id: ctx.meta.transaction_id };
    let result: PipelineResult;
    try {
      result = await inner(input, ctx);
    } catch (err) {
      const e = err instanceof DocprocError ? err : wrapStageError("pipeline", err);
      await notifyFinished(project, ref, { status: "failed", error: e.message, failedStage: e.stage ?? null }).catch(() => null);
      throw err;
    }
    const failed = result.status === "failure";
    const sent = await notifyFinished(
      project,
      ref,
      failed ? { status: "failed", error: describe(result), failedStage: result.errors[0]?.stage ?? null, manifest: result.manifest } : { status: "completed", manifest: result.manifest },
    );
    const warnings = [...result.warnings, ...sent.warnings];
    if (!sent.failWorkflow || failed) return { ...result, warnings };
    return { ...result, status: "failure", warnings, errors: [...result.errors, { stage: "notify", code: "delivery_failed", message: sent.failWorkflow }] };
  };
}
