/** Reading status: one transaction (with long poll), batch status, and the filtered list. */
import { Elysia } from "elysia";
import { getTransactions } from "../../storage/transactions";
import type { ServerDeps } from "../deps";
import type { LongPoll } from "../long-poll";
import { BatchStatusBody } from "../schemas";
import { listView } from "../services/list";
import { parseFields, project, transactionView } from "../services/status";
import { requireTransaction } from "../services/transactions";
import { parseInput, queryBool, queryInt, readJson } from "../validation";

export function statusRoutes(deps: ServerDeps, longPoll: LongPoll) {
  return new Elysia({ name: "status" })
    .get("/transactions/:transaction_id", async ({ params, query, request }) => {
      const timeout = queryInt(query.timeout, "timeout", { min: 0, max: deps.config.maxLongPollSeconds, fallback: 0 });
      const fields = parseFields(query.fields);
      const includeRequest = queryBool(query.include_request, "include_request");
      let t = requireTransaction(deps, params.transaction_id);
      if (timeout > 0) {
        await longPoll.wait(t.transaction_id, t.status, timeout * 1000, request.signal);
        t = requireTransaction(deps, params.transaction_id);
      }
      return project(transactionView(deps.db, t, { includeRequest }), fields);
    })
    .post(
      "/transactions/batch-status",
      async ({ request }) => {
        const body = parseInput(BatchStatusBody, await readJson(request));
        const fields = parseFields(body.fields);
        const found = new Map(getTransactions(deps.db, [...new Set(body.transaction_ids)]).map((t) => [t.transaction_id, t]));
        const statuses: Record<string, unknown> = {};
        for (const id of body.transaction_ids) {
          const t = found.get(id);
          statuses[id] = t ? project(transactionView(deps.db, t), fields) : { transaction_id: id, error: "not_found" };
        }
        return { statuses };
      },
      { parse: "none" },
    )
    .get("/transactions", ({ query }) => listView(deps.db, query));
}
