/** Reading status: one transaction (with long poll), batch status, and the filtered list. */
import { Elysia } from "elysia";
import { DocprocError } from "../../core/errors";
import { getTransactionSummaries, getTransactionSummary, type TransactionSummary } from "../../storage/transactions";
import { scopeListQuery, tenantScopeOf } from "../auth";
import type { ServerDeps } from "../deps";
import type { LongPoll } from "../long-poll";
import { BatchStatusBody } from "../schemas";
import { listView } from "../services/list";
import { parseFields, project, transactionView } from "../services/status";
import { parseInput, queryBool, queryInt, readJson } from "../validation";

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
