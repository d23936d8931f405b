/**
 * The `webhook_delivery` job kind, planning side: every webhook delivery is its own durable job, never inline in
 * the workflow.
 *
 * - `planTransactionDeliveries` runs in the SAME SQLite transaction that gives a transaction its final status
 *   (ProcessDeps.onFinished): it logs one delivery per planned notification and enqueues its first attempt. Delivery
 *   ids are derived from (transaction, node position, event), so a recovered transaction job cannot enqueue twice.
 * - One job = one attempt (delivery-attempts.ts runs them). The attempt is recorded and the next one is enqueued
 *   as a new job whose run_at is the backoff: a job MUST NOT sleep, and a restart loses nothing.
 * - fail_workflow_on_error: a completed transaction with such deliveries is held in `processing` (current step
 *   `notify`) until they end; the first final failure fails it with `deliveryFailure(...)`, and that failure plans no
 *   `transaction.failed` notifications. Other deliveries never touch the transaction.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { DocprocError } from "../core/errors";
import { newDeliveryId, type AttemptRecord, type DeliveryRequest } from "../core/notify/deliver";
import type { AllowPrivate, Resolver } from "../core/notify/ssrf";
import type { NotificationEvent } from "../core/project/notify";
import {
  deliveryFailure,
  nodesByOutcome,
  notificationNodes,
  planNotifications,
  type NotificationNode,
  type NotifyTrigger,
  type PlannedDelivery,
  type WorkflowStepLike,
} from "../core/stages/notify";
import type { ExportManifestLike } from "../core/notify/payload";
import { WorkflowStepSchema } from "../core/project";
import { isoAt, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import * as store from "../storage/jobs/deliveries";
import { getProjectById } from "../storage/projects/projects";
import * as tx from "../storage/transactions/transactions";
import { enqueue } from "../storage/jobs/jobs";
import type { FinishedOutcome } from "./transaction-job";
import { pushAll } from "../core/arrays";

export const WEBHOOK_DELIVERY = "webhook_delivery";
/** Deliveries are short I/O: they go ahead of all document processing (transaction priorities are -1000..1000). */
const DELIVERY_PRIORITY = 1001;
/** Job-level attempts only cover a worker that died mid-attempt; the delivery's own retries are separate jobs. */
const JOB_MAX_ATTEMPTS = 3;

export interface WebhookSettings {
  /** The deployment's public URL, for links when an activity has no api_base_url (read at planning time). */
  publicBaseUrl: () => string | null;
  /** SSRF allow-list (docs/webhooks.md); false = public hosts only. */
  allowPrivate: AllowPrivate;
  /** Host resolver (tests). */
  resolve?: Resolver;
}

/** From the environment's webhook slice (src/settings/env.ts): the configured public URL, else `fallbackUrl()`. */
export function webhookSettingsOf(
  env: { publicUrl: string | null; allowPrivate: AllowPrivate },
  fallbackUrl: () => string | null = () => null,
): WebhookSettings {
  return { publicBaseUrl: () => env.publicUrl ?? fallbackUrl(), allowPrivate: env.allowPrivate };
}

/**
 * `msg_<uuid-shaped sha256>` of the transaction, the node's workflow position, the event and the run (0 for the
 * first run; a rerun counts up), so a node reached again in the same run never enqueues twice.
 */
export function deterministicDeliveryId(
  transactionId: string,
  index: number,
  event: NotificationEvent,
  run = 0,
): string {
  const h = createHash("sha256")
    .update(`${transactionId}\u0000${index}\u0000${event}${run ? `\u0000${run}` : ""}`)
    .digest("hex");
  return `msg_${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function workflowOf(settings: unknown): WorkflowStepLike[] {
  const raw = (settings as { workflow?: unknown } | null)?.workflow;
  const parsed = z.array(WorkflowStepSchema).safeParse(Array.isArray(raw) ? raw : []);
  return parsed.success ? (parsed.data as WorkflowStepLike[]) : [];
}

/** Enqueues the job of one attempt (the first when planned, the next one after a retryable failure). */
export function enqueueAttempt(db: Db, clock: Clock, deliveryId: string, attempt: number, runAt?: number): void {
  enqueue(db, clock, {
    kind: WEBHOOK_DELIVERY,
    payload: { delivery_id: deliveryId, attempt },
    priority: DELIVERY_PRIORITY,
    runAt,
    maxAttempts: JOB_MAX_ATTEMPTS,
    key: `webhook:${deliveryId}:${attempt}`,
  });
}

function logPlanned(db: Db, now: string, transactionId: string, tenantId: string, p: PlannedDelivery): boolean {
  return store.insertDelivery(db, {
    delivery_id: p.request.delivery_id,
    transaction_id: transactionId,
    tenant_id: tenantId,
    node_id: p.node_id,
    activity_index: p.activity_index,
    event: p.event,
    event_name: p.payload.event,
    request: p.request,
    retry_max_attempts: p.activity.retry_max_attempts,
    retry_backoff_seconds: p.activity.retry_backoff_seconds,
    fail_workflow_on_error: p.fail_workflow_on_error,
    now,
  });
}

export interface PlanResult {
  enqueued: number;
  /** The transaction waits in `processing` for fail_workflow_on_error deliveries. */
  holding: boolean;
  warnings: string[];
}

/** Plans, logs and enqueues the deliveries of some nodes for one trigger; returns how many were new. */
function enqueueNodes(
  db: Db,
  clock: Clock,
  t: tx.TransactionRecord,
  nodes: NotificationNode[],
  all: NotificationNode[],
  trigger: NotifyTrigger,
  settings: WebhookSettings,
  run: number,
): { enqueued: number; warnings: string[] } {
  const name = t.metadata.transaction_name;
  const transaction = {
    tenant_id: t.tenant_id,
    project_id: t.project_id,
    transaction_id: t.transaction_id,
    transaction_name: typeof name === "string" ? name : null,
  };
  const now = isoAt(clock);
  let enqueued = 0;
  const warnings: string[] = [];
  for (const node of nodes) {
    const number = Math.max(
      0,
      all.findIndex((n) => n.step_index === node.step_index),
    );
    const plan = planNotifications({
      activities: [node],
      transaction,
      trigger,
      publicBaseUrl: settings.publicBaseUrl(),
      now: new Date(clock.now()),
      newId: (_i, e) => deterministicDeliveryId(t.transaction_id, node.step_index, e, run),
    });
    pushAll(warnings, plan.warnings);
    for (const p of plan.deliveries) {
      p.activity_index = number;
      if (!logPlanned(db, now, t.transaction_id, t.tenant_id, p)) continue;
      enqueueAttempt(db, clock, p.request.delivery_id, 1);
      enqueued++;
    }
  }
  return { enqueued, warnings };
}

/**
 * A Notification node was reached mid-run: its `reached` delivery is logged and enqueued now, with the manifest of
 * that moment (the runner's `notify` on the server). Idempotent per (transaction, node, event, run).
 */
export function enqueueReached(
  db: Db,
  clock: Clock,
  transactionId: string,
  stepIndex: number,
  manifest: ExportManifestLike,
  settings: WebhookSettings,
  run: number,
): PlanResult {
  return db
    .transaction(() => {
      const t = tx.getTransaction(db, transactionId);
      const project = t ? getProjectById(db, t.project_id) : null;
      // The playground runs the same workflow but never notifies anyone (docs/datasets.md).
      if (!t || !project || t.dataset_id === "playground") return { enqueued: 0, holding: false, warnings: [] };
      const all = notificationNodes(workflowOf(project.settings));
      const node = all.filter((n) => n.step_index === stepIndex);
      return {
        ...enqueueNodes(db, clock, t, node, all, { event: "reached", manifest }, settings, run),
        holding: false,
      };
    })
    .immediate();
}

/**
 * Logs and enqueues the notifications of a transaction that just finished. MUST run inside the transaction that
 * wrote its final status (so deliveries exist if and only if the status does).
 * - completed: every node has its `reached` delivery; those enqueued when the run reached them are not repeated
 *   (same delivery id), a node whose delivery is missing gets one with the final manifest;
 * - failed: the nodes the run had passed keep (or get) `reached`, the others get `failed`.
 * A completed transaction with a pending `fail_workflow_on_error` delivery is held in `processing`; one whose such
 * delivery already failed is failed with that delivery's error.
 */
export function planTransactionDeliveries(
  db: Db,
  clock: Clock,
  outcome: FinishedOutcome,
  settings: WebhookSettings,
): PlanResult {
  const t = tx.getTransaction(db, outcome.transaction_id);
  const project = t ? getProjectById(db, t.project_id) : null;
  if (!t || !project) return { enqueued: 0, holding: false, warnings: [] };
  // The playground runs the same workflow but never notifies anyone (docs/datasets.md).
  if (t.dataset_id === "playground") return { enqueued: 0, holding: false, warnings: [] };
  const workflow = workflowOf(project.settings);
  const all = notificationNodes(workflow);
  const run = outcome.run ?? 0;
  const split = nodesByOutcome(all, workflow, outcome.status === "completed" ? null : (outcome.failedStage ?? ""));
  const manifest =
    outcome.status === "completed"
      ? outcome.manifest
      : { transaction_id: t.transaction_id, profiles: {}, total_files: 0, total_size_bytes: 0 };
  const reached = enqueueNodes(db, clock, t, split.reached, all, { event: "reached", manifest }, settings, run);
  const failed =
    outcome.status === "failed"
      ? enqueueNodes(db, clock, t, split.notReached, all, { event: "failed", error: outcome.error }, settings, run)
      : { enqueued: 0, warnings: [] };
  const now = isoAt(clock);
  let holding = false;
  if (outcome.status === "completed") {
    // This run's blocking deliveries (a rerun's are its own: earlier runs' outcomes do not count).
    const blocking = split.reached
      .filter((n) => n.activity.fail_workflow_on_error && n.activity.events.includes("reached"))
      .map((n) => store.getDelivery(db, deterministicDeliveryId(t.transaction_id, n.step_index, "reached", run)))
      .filter((d): d is store.DeliveryRecord => d !== null);
    const lost = blocking.find((d) => d.state === "failed");
    if (lost) {
      const planned = {
        activity_index: lost.activity_index,
        event: lost.event,
        fail_workflow_on_error: true,
        request: lost.request,
      } as PlannedDelivery;
      const failure = deliveryFailure(planned, {
        ok: false,
        error: lost.last_error ?? undefined,
        attempts: new Array<AttemptRecord>(lost.attempts),
      });
      tx.markFailed(db, t.transaction_id, now, failure!.message, t.processing_time_seconds);
    } else if (blocking.some((d) => d.state === "pending" || d.state === "retrying"))
      holding = store.holdForDeliveries(db, t.transaction_id, now);
  }
  return { enqueued: reached.enqueued + failed.enqueued, holding, warnings: [...reached.warnings, ...failed.warnings] };
}

/** Sends a finished delivery again as a new delivery (new webhook-id, same body). It never changes the transaction. */
export function redeliver(db: Db, clock: Clock, deliveryId: string): store.DeliveryRecord {
  return db
    .transaction(() => {
      const d = store.getDelivery(db, deliveryId);
      if (!d) throw new DocprocError("not_found", `Delivery ${deliveryId} not found`);
      if (d.state === "pending" || d.state === "retrying")
        throw new DocprocError(
          "conflict",
          `Delivery ${deliveryId} is still ${d.state}; redeliver it once it has ended`,
        );
      const id = newDeliveryId();
      const request: DeliveryRequest = { ...d.request, delivery_id: id };
      store.insertDelivery(db, {
        ...d,
        delivery_id: id,
        request,
        fail_workflow_on_error: false,
        redelivery_of: d.delivery_id,
        now: isoAt(clock),
      });
      enqueueAttempt(db, clock, id, 1);
      return store.getDelivery(db, id)!;
    })
    .immediate();
}
