/** Reading status: one transaction (with long poll), batch status, and the filtered list. */
import { Elysia } from "elysia";
import { DocprocError } from "../../core/errors";
import {
  getTransactionSummaries,
  getTransactionSummary,
  type TransactionSummary,
} from "../../storage/transactions/transactions";
import { scopeListQuery, tenantScopeOf } from "../auth";
import type { ServerDeps } from "../deps";
import type { LongPoll } from "../long-poll";
import { BatchStatusBody } from "../schemas";
import { BatchStatusResponse, ListResponse, TransactionSchema } from "../schemas-responses";
import { listView } from "../services/list";
import { parseFields, project, transactionView } from "../services/status";
import { parseInput, queryBool, queryInt, readJson } from "../validation";
import { z } from "zod";
import { bad, common, FieldsQuery, notFound, q, documentRoutes, type RouteDoc } from "../route-doc";

function requireSummary(deps: ServerDeps, id: string): TransactionSummary {
  const t = getTransactionSummary(deps.db, id);
  if (!t) throw new DocprocError("not_found", `Transaction ${id} not found`);
  return t;
}

export function statusRoutes(deps: ServerDeps, longPoll: LongPoll) {
  return new Elysia({ name: "status" })
    .get("/transactions/:transaction_id", async ({ params, query, request }) => {
      const timeout = queryInt(query.timeout, "timeout", { min: 0, max: deps.config.maxLongPollSeconds, fallback: 0 });
      const fields = parseFields(query.fields);
      const includeRequest = queryBool(query.include_request, "include_request");
      let t = requireSummary(deps, params.transaction_id);
      if (timeout > 0) {
        await longPoll.wait(t.transaction_id, t.status, timeout * 1000, request.signal);
        t = requireSummary(deps, params.transaction_id);
      }
      return project(transactionView(deps.db, t, { includeRequest }), fields);
    })
    .post(
      "/transactions/batch-status",
      async ({ request }) => {
        const body = parseInput(BatchStatusBody, await readJson(request));
        const fields = parseFields(body.fields);
        const found = new Map(
          getTransactionSummaries(deps.db, [...new Set(body.transaction_ids)]).map((t) => [t.transaction_id, t]),
        );
        const statuses: Record<string, unknown> = {};
        const scope = tenantScopeOf(request);
        for (const id of body.transaction_ids) {
          const t = found.get(id);
          statuses[id] =
            t && (scope === null || t.tenant_id === scope)
              ? project(transactionView(deps.db, t), fields)
              : { transaction_id: id, error: "not_found" };
        }
        return { statuses };
      },
      { parse: "none" },
    )
    .get("/transactions", ({ query, request }) => listView(deps.db, scopeListQuery(query, tenantScopeOf(request))));
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const STATUS_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/transactions/{transaction_id}",
    summary: "Get a transaction (status, not results); long poll with timeout",
    tag: "Status",
    query: z.object({
      timeout: q.integer("Long poll: hold up to N seconds, return at once on a status change"),
      ...FieldsQuery,
      include_request: q.boolean("Include the original request (completed transactions)"),
    }),
    responses: { 200: { description: "Transaction", schema: TransactionSchema }, ...bad, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/transactions/batch-status",
    summary: "Status of up to 100 transactions",
    tag: "Status",
    body: BatchStatusBody,
    responses: {
      200: { description: "Statuses keyed by transaction id", schema: BatchStatusResponse },
      ...bad,
      ...common,
    },
  },
  {
    method: "get",
    path: "/transactions",
    summary: "List transactions",
    tag: "Status",
    query: z.object({
      dataset_id: q.string("Default production"),
      status: q.string("One status or several, comma-separated"),
      limit: q.integer("Default 100, at most 1000"),
      offset: q.integer("Default 0"),
      search: q.string("Free text over transaction id, correlation id, file names, document types, index fields"),
      sort_by: q.string(
        "created_at, status, processing_time_seconds, transaction_id, priority, completed_at, or idx_<name>",
      ),
      sort_order: q.string("asc or desc (default)"),
      step: q.string("Current workflow step id"),
      date_from: q.string("Inclusive lower bound on created_at (ISO 8601)"),
      date_to: q.string("Inclusive upper bound on created_at; a date-only value covers the whole day"),
      index_filter: q.string('JSON object: {"<index field>": ["value", ...]}'),
      filter_expression: q.string("JSON expression tree (docs/api.md); overrides status, step, dates and index_filter"),
      ...FieldsQuery,
    }),
    responses: { 200: { description: "Page of transactions", schema: ListResponse }, ...bad, ...common },
  },
];
documentRoutes(STATUS_ROUTE_DOCS);
