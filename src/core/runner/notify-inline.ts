/**
 * Inline delivery of notifications, for entry points without a queue (`docproc process`, `docproc watch`): each
 * event is sent when the runner hands it over, with the activity's full retry policy (a blocking loop). A delivery
 * that finally fails is a warning, or `failWorkflow` for a `fail_workflow_on_error` activity (the runner then aborts
 * with `delivery_failed` at that node). The server enqueues durable jobs instead (src/queue/deliveries.ts).
 */
import type { AllowPrivate } from "../notify/ssrf";
import type { TransactionRef } from "../notify/payload";
import type { ProjectSettings } from "../project";
import { notificationNodes, planNotifications, runDeliveries, type NotificationNode } from "../stages/notify";
import type { NotifyFn } from "../stages/types";

export interface InlineNotifySettings {
  /** Base of payload links when an activity has no api_base_url (DOCPROC_PUBLIC_URL). */
  publicBaseUrl: string | null;
  /** SSRF allow-list (DOCPROC_WEBHOOK_ALLOW). */
  allowPrivate: AllowPrivate;
}

export function inlineNotifier(
  project: ProjectSettings,
  transaction: TransactionRef,
  settings: InlineNotifySettings,
  now: () => Date = () => new Date(),
): NotifyFn {
  const nodes = notificationNodes(project.workflow);
  return async (e) => {
    // Numbered as in the workflow's list of configured Notification nodes ("notification 2 (reached) failed").
    const number = Math.max(
      0,
      nodes.findIndex((n) => n.step_index === e.step.step_index),
    );
    const node: NotificationNode = {
      step_index: e.step.step_index,
      id: e.step.id,
      name: null,
      activity: e.step.activity,
    };
    const trigger =
      e.event === "reached"
        ? { event: "reached" as const, manifest: e.manifest }
        : { event: "failed" as const, error: e.error };
    const plan = planNotifications({
      activities: [node],
      transaction,
      trigger,
      publicBaseUrl: settings.publicBaseUrl,
      now: now(),
    });
    for (const d of plan.deliveries) d.activity_index = number;
    const { results, failWorkflow } = await runDeliveries(plan.deliveries, { allowPrivate: settings.allowPrivate });
    const warnings = [
      ...plan.warnings,
      ...results
        .filter((r) => !r.result.ok)
        .map((r) => `notification ${number + 1} (${r.planned.event}) failed: ${r.result.error ?? "unknown error"}`),
    ];
    return { failWorkflow: failWorkflow?.message ?? null, warnings };
  };
}
