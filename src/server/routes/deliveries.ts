/**
 * The webhook delivery log (documented extension, docs/webhooks.md): list a transaction's deliveries with every
 * attempt, and send a finished delivery again. Access rules are in src/auth/permissions.ts (transaction.read,
 * transaction.create) and tenant scope comes from the transaction in the path. Secrets are never returned.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { DocprocError } from "../../core/errors";
import { redeliver } from "../../queue/deliveries";
import { getDelivery, listDeliveries, viewOf } from "../../storage/jobs/deliveries";
import type { ServerDeps } from "../deps";
import { documentRoutes, type RouteDoc } from "../route-doc";
import { ErrorSchema } from "../schemas";
import { requireTransaction } from "../services/transactions";

export function deliveryRoutes(deps: ServerDeps) {
  return new Elysia({ name: "deliveries" })
    .get("/transactions/:transaction_id/deliveries", ({ params }) => {
      const t = requireTransaction(deps, params.transaction_id);
      return { transaction_id: t.transaction_id, deliveries: listDeliveries(deps.db, t.transaction_id) };
    })
    .post(
      "/transactions/:transaction_id/deliveries/:delivery_id/redeliver",
      ({ params, set }) => {
        const t = requireTransaction(deps, params.transaction_id);
        const original = getDelivery(deps.db, params.delivery_id);
        if (!original || original.transaction_id !== t.transaction_id) {
          throw new DocprocError(
            "not_found",
            `Delivery ${params.delivery_id} not found for transaction ${t.transaction_id}`,
          );
        }
        const created = redeliver(deps.db, deps.clock, original.delivery_id);
        deps.wake();
        set.status = 202;
        return viewOf(deps.db, created);
      },
      { parse: "none" },
    );
}

const AttemptSchema = z.object({
  attempt: z.number().int(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  status: z.number().int().nullable().describe("HTTP status; null when no response arrived"),
  kind: z.enum(["success", "http_status", "redirect", "timeout", "network", "dns", "ssrf_blocked"]),
  error: z.string().nullable(),
  retry_after_seconds: z.number().nullable(),
  address: z.string().nullable().describe("The IP address actually connected to"),
  response_excerpt: z.string().nullable().describe("First 2 KiB of the response body"),
});

const DeliverySchema = z.object({
  delivery_id: z.string().describe("The webhook-id header; the same for every attempt of this delivery"),
  transaction_id: z.string(),
  tenant_id: z.string(),
  node_id: z.string().nullable().describe("Workflow step id of the Notification node"),
  activity_index: z.number().int(),
  event: z.enum(["reached", "failed"]),
  event_name: z.string().describe("The payload's event value"),
  url: z.string().describe("webhook_url without credentials and query values"),
  retry_max_attempts: z.number().int(),
  retry_backoff_seconds: z.number(),
  fail_workflow_on_error: z.boolean(),
  state: z.enum(["pending", "retrying", "succeeded", "failed"]),
  attempts: z.number().int().describe("Attempts made so far"),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  redelivery_of: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
  attempt_log: z.array(AttemptSchema),
});

const DeliveryListSchema = z.object({ transaction_id: z.string(), deliveries: z.array(DeliverySchema) });

const common = {
  401: { description: "Missing or invalid X-API-Key", schema: ErrorSchema },
  403: { description: "Missing permission", schema: ErrorSchema },
};

export const DELIVERY_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/transactions/{transaction_id}/deliveries",
    summary: "Webhook delivery log: every delivery of the transaction with its attempts (extension)",
    tag: "Webhooks",
    responses: {
      200: { description: "Deliveries, oldest first", schema: DeliveryListSchema },
      ...common,
      404: { description: "Unknown transaction", schema: ErrorSchema },
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/deliveries/{delivery_id}/redeliver",
    summary:
      "Send a finished delivery again as a new delivery (new webhook-id, same body); never changes the transaction (extension)",
    tag: "Webhooks",
    responses: {
      202: { description: "The new delivery, queued", schema: DeliverySchema },
      400: { description: "The delivery is still pending or retrying", schema: ErrorSchema },
      ...common,
      404: { description: "Unknown transaction or delivery", schema: ErrorSchema },
    },
  },
];
documentRoutes(DELIVERY_ROUTE_DOCS);
