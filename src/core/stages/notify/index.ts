/**
 * Notification planning: turns the project's Notification activities into deliveries to enqueue. The run's
 * Notification Stage (`notifyStage`) is in stage.ts beside this file; delivery, signing and SSRF guard in core/notify/.
 *
 * MUST plan one delivery per activity whose `events` include the trigger, in workflow order:
 * - `reached` when the workflow reaches the node (after Export: the payload links the export manifest);
 * - `failed` when the workflow aborts before reaching it.
 * MUST NOT send anything itself: the server enqueues each delivery as a durable job (src/queue); the CLI, which has
 * no queue, runs them with `runDeliveries`. A misconfigured activity (no link base) is reported in `warnings` and
 * never stops the others.
 *
 * fail_workflow_on_error: a delivery planned with `fail_workflow_on_error: true` MUST be finished (all attempts)
 * before the transaction gets its final status; if it finally fails, the notify step fails and the transaction
 * becomes `failed` with the `delivery_failed` error from `deliveryFailure`. Such a failure does not plan
 * `transaction.failed` notifications (that would notify about the notification and could loop). With the default
 * `false`, a failed delivery is only logged.
 */
import { DocprocError } from "../../errors.ts";
import type { NotificationActivity, NotificationEvent } from "../../project/notify.ts";
import type { DeliveryRequest } from "../../notify/deliver.ts";
import type { ExportManifestLike, TransactionRef, WebhookPayload } from "../../notify/payload.ts";
import type { DeliveryResult, RetryOptions } from "../../notify/retry.ts";

/**
 * Delivery, payloads and retries (with the SSRF guard and ipaddr.js: 7 modules, ~12 ms of CPU to load) are required
 * once a delivery is planned: a workflow whose Notification nodes have no activity yet, like the default project's,
 * never plans one, and every `docproc process` start paid for them (issue 34).
 */
const deliver = () => require("../../notify/deliver.ts") as typeof import("../../notify/deliver.ts");
const payloads = () => require("../../notify/payload.ts") as typeof import("../../notify/payload.ts");
const retry = () => require("../../notify/retry.ts") as typeof import("../../notify/retry.ts");

/** A workflow step as project settings hold it (structural, so this stage does not depend on the settings module). */
export interface WorkflowStepLike {
  type: string;
  id?: string;
  name?: string;
  enabled?: boolean;
  activity?: NotificationActivity | null;
}

/** A configured, enabled Notification step and its position in the workflow. */
export interface NotificationNode {
  step_index: number;
  id: string | null;
  name: string | null;
  activity: NotificationActivity;
}

/** The workflow's enabled Notification steps that have an activity, in workflow order. */
export function notificationNodes(workflow: WorkflowStepLike[]): NotificationNode[] {
  const nodes: NotificationNode[] = [];
  workflow.forEach((step, i) => {
    if (step.type !== "notification" || step.enabled === false || !step.activity) return;
    nodes.push({ step_index: i, id: step.id ?? null, name: step.name ?? null, activity: step.activity });
  });
  return nodes;
}

/**
 * Splits the nodes by how far the workflow got. `failedStage` is the stage that aborted the workflow (null when it
 * completed). Nodes placed before the first workflow step of that stage were reached; the others were not and fire
 * `failed`. A stage that is not a workflow step (convert, ocr) runs before all of them, so no node was reached.
 */
export function nodesByOutcome(nodes: NotificationNode[], workflow: WorkflowStepLike[], failedStage: string | null) {
  if (failedStage === null) return { reached: nodes, notReached: [] as NotificationNode[] };
  const at = workflow.findIndex((s) => s.type === failedStage);
  const cut = at === -1 ? 0 : at;
  return { reached: nodes.filter((n) => n.step_index < cut), notReached: nodes.filter((n) => n.step_index >= cut) };
}

export type NotifyTrigger = { event: "reached"; manifest: ExportManifestLike } | { event: "failed"; error: string };

export interface NotificationPlanInput {
  /** The Notification activities to fire, in workflow order: plain activities or workflow nodes. */
  activities: Array<NotificationActivity | NotificationNode>;
  transaction: TransactionRef;
  trigger: NotifyTrigger;
  /** The deployment's public URL; used when an activity has no api_base_url. */
  publicBaseUrl?: string | null;
  now?: Date;
  /** Delivery id factory (webhook-id); a queue MAY pass a deterministic one for idempotent enqueueing. */
  newId?: (activityIndex: number, event: NotificationEvent) => string;
}

export interface PlannedDelivery {
  /** Position in `activities`. */
  activity_index: number;
  /** Workflow step id of the node, when the input was a node. */
  node_id: string | null;
  event: NotificationEvent;
  activity: NotificationActivity;
  payload: WebhookPayload;
  request: DeliveryRequest;
  fail_workflow_on_error: boolean;
}

export interface NotifyPlan {
  deliveries: PlannedDelivery[];
  warnings: string[];
}

export function planNotifications(input: NotificationPlanInput): NotifyPlan {
  const now = input.now ?? new Date();
  const event = input.trigger.event;
  const deliveries: PlannedDelivery[] = [];
  const warnings: string[] = [];
  input.activities.forEach((entry, index) => {
    const isNode = "activity" in entry && "step_index" in entry;
    const activity = isNode ? (entry as NotificationNode).activity : (entry as NotificationActivity);
    const nodeId = isNode ? (entry as NotificationNode).id : null;
    if (!activity.events.includes(event)) return;
    try {
      const payload = payloadFor(activity, input, now);
      const id = input.newId ? input.newId(index, event) : deliver().newDeliveryId();
      deliveries.push({
        activity_index: index,
        node_id: nodeId,
        event,
        activity,
        payload,
        request: deliver().buildDeliveryRequest(activity, payload, id),
        fail_workflow_on_error: activity.fail_workflow_on_error,
      });
    } catch (err) {
      const label = nodeId ? `"${nodeId}"` : String(index + 1);
      warnings.push(`notification ${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return { deliveries, warnings };
}

function payloadFor(activity: NotificationActivity, input: NotificationPlanInput, now: Date): WebhookPayload {
  if (input.trigger.event === "failed") {
    return payloads().buildFailedPayload({
      transaction: input.transaction,
      error: input.trigger.error,
      occurredAt: now,
    });
  }
  return payloads().buildReachedPayload({
    transaction: input.transaction,
    manifest: input.trigger.manifest,
    eventName: activity.event_name,
    apiBaseUrl: activity.api_base_url,
    publicBaseUrl: input.publicBaseUrl,
    occurredAt: now,
  });
}

/** The error that fails the workflow when a fail_workflow_on_error delivery finally failed; else null. */
export function deliveryFailure(
  planned: PlannedDelivery,
  result: Pick<DeliveryResult, "ok" | "error" | "attempts">,
): DocprocError | null {
  if (result.ok || !planned.fail_workflow_on_error) return null;
  return new DocprocError(
    "delivery_failed",
    `notification ${planned.activity_index + 1} (${planned.event}) failed after ${result.attempts.length} attempt(s): ${result.error ?? "unknown error"}`,
    { stage: "notify", details: { delivery_id: planned.request.delivery_id, activity_index: planned.activity_index } },
  );
}

export interface RunDeliveriesResult {
  results: Array<{ planned: PlannedDelivery; result: DeliveryResult }>;
  /** Set when a fail_workflow_on_error delivery failed: the transaction MUST end `failed` with it. */
  failWorkflow: DocprocError | null;
}

/** Runs planned deliveries one after another with retries (the CLI path; the server uses the queue instead). */
export async function runDeliveries(
  planned: PlannedDelivery[],
  opts: Omit<RetryOptions, "deliveryId"> = {},
): Promise<RunDeliveriesResult> {
  const results: RunDeliveriesResult["results"] = [];
  let failWorkflow: DocprocError | null = null;
  for (const p of planned) {
    const result = await retry().deliverWithRetries(p.activity, p.payload, {
      ...opts,
      deliveryId: p.request.delivery_id,
    });
    results.push({ planned: p, result });
    failWorkflow ??= deliveryFailure(p, result);
  }
  return { results, failWorkflow };
}

export interface TransactionNotificationsInput {
  workflow: WorkflowStepLike[];
  transaction: TransactionRef;
  /** `failedStage`: the stage that aborted the workflow (null if unknown: then no node counts as reached). */
  outcome:
    | { status: "completed"; manifest: ExportManifestLike }
    | { status: "failed"; error: string; failedStage: string | null; manifest?: ExportManifestLike };
  publicBaseUrl?: string | null;
  now?: Date;
  newId?: (activityIndex: number, event: NotificationEvent) => string;
}

/**
 * Everything a finished transaction must notify, in workflow order: on completion every node fires `reached`; on
 * failure the nodes the workflow had passed fire `reached` (with the manifest as it was, empty if Export had not
 * run) and the others fire `failed`. Delivery ids are unique across both groups.
 */
export function planTransactionNotifications(input: TransactionNotificationsInput): NotifyPlan {
  const nodes = notificationNodes(input.workflow);
  const common = { transaction: input.transaction, publicBaseUrl: input.publicBaseUrl, now: input.now };
  const idFor = (offset: number) =>
    input.newId ? (i: number, e: NotificationEvent) => input.newId!(i + offset, e) : undefined;
  if (input.outcome.status === "completed") {
    return planNotifications({
      ...common,
      activities: nodes,
      trigger: { event: "reached", manifest: input.outcome.manifest },
      newId: idFor(0),
    });
  }
  const split = nodesByOutcome(nodes, input.workflow, input.outcome.failedStage ?? "");
  const manifest = input.outcome.manifest ?? emptyManifest(input.transaction.transaction_id);
  const reached = planNotifications({
    ...common,
    activities: split.reached,
    trigger: { event: "reached", manifest },
    newId: idFor(0),
  });
  const failed = planNotifications({
    ...common,
    activities: split.notReached,
    trigger: { event: "failed", error: input.outcome.error },
    newId: idFor(split.reached.length),
  });
  failed.deliveries.forEach((d) => (d.activity_index += split.reached.length));
  return {
    deliveries: [...reached.deliveries, ...failed.deliveries],
    warnings: [...reached.warnings, ...failed.warnings],
  };
}

function emptyManifest(transactionId: string): ExportManifestLike {
  return { transaction_id: transactionId, profiles: {}, total_files: 0, total_size_bytes: 0 };
}
