/**
 * GET /transactions query parameters → storage ListQuery. Every bad parameter is a 400 naming it.
 * index_filter: JSON object {"<index field>": ["value", ...]}; filter_expression: JSON (storage/transactions/filter-expression.ts).
 */
import { DocprocError } from "../../core/errors";
import type { Db } from "../../storage/schema/db";
import { listTransactions, SORT_COLUMNS, type ListQuery } from "../../storage/transactions/transaction-list";
import { DatasetIdSchema, STATUSES } from "../schemas";
import { parseJsonParam, queryInt } from "../validation";
import { parseFields, project, transactionView } from "./status";

export const MAX_LIST_LIMIT = 1000;
/** Past this, no page of a list has items; a bound keeps the number a plain SQLite integer. */
export const MAX_LIST_OFFSET = 1_000_000_000;

const jsonParam = (raw: string, name: string) => parseJsonParam(raw, name);

/** Inclusive bound: a date-only `date_to` covers that whole day. */
function dateParam(raw: string | undefined, name: string, endOfDay: boolean): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const ms = Date.parse(dateOnly ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(ms)) throw new DocprocError("invalid_input", `${name}: not an ISO 8601 date or datetime`);
  return new Date(dateOnly && endOfDay ? ms + 86_400_000 - 1 : ms).toISOString();
}

function indexFilterParam(raw: string | undefined): Record<string, string[]> | undefined {
  if (raw === undefined || raw === "") return undefined;
  const v = jsonParam(raw, "index_filter");
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new DocprocError("invalid_input", "index_filter: must be a JSON object of arrays");
  const out: Record<string, string[]> = {};
  for (const [k, vals] of Object.entries(v)) {
    const name = k.startsWith("idx_") ? k.slice(4) : k;
    const list = Array.isArray(vals) ? vals : [vals];
    if (list.some((x) => typeof x === "object" && x !== null))
      throw new DocprocError("invalid_input", `index_filter.${k}: values must be strings or numbers`);
    out[name] = list.map(String);
  }
  return out;
}

export function parseListQuery(q: Record<string, string | undefined>): ListQuery {
  const dataset = q.dataset_id || "production";
  if (!DatasetIdSchema.safeParse(dataset).success)
    throw new DocprocError(
      "invalid_input",
      "dataset_id: must be production, playground, memory, or an evaluation dataset UUID",
    );
  const status = q.status
    ? q.status
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  const badStatus = status?.filter((s) => !(STATUSES as readonly string[]).includes(s)) ?? [];
  if (badStatus.length)
    throw new DocprocError(
      "invalid_input",
      `status: unknown value ${badStatus.join(", ")}; allowed: ${STATUSES.join(", ")}`,
    );
  const sortBy = q.sort_by || "created_at";
  if (!SORT_COLUMNS[sortBy] && !/^idx_[A-Za-z0-9_.-]{1,100}$/.test(sortBy)) {
    throw new DocprocError(
      "invalid_input",
      `sort_by: unknown value ${JSON.stringify(sortBy)}; allowed: ${Object.keys(SORT_COLUMNS).join(", ")}, idx_<name>`,
    );
  }
  const sortOrder = (q.sort_order || "desc").toLowerCase();
  if (sortOrder !== "asc" && sortOrder !== "desc")
    throw new DocprocError("invalid_input", "sort_order: must be asc or desc");
  return {
    datasetId: dataset,
    tenantId: q.tenant_id || undefined,
    projectId: q.project_id || undefined,
    status,
    step: q.step || undefined,
    dateFrom: dateParam(q.date_from, "date_from", false),
    dateTo: dateParam(q.date_to, "date_to", true),
    indexFilter: indexFilterParam(q.index_filter),
    filterExpression: q.filter_expression ? jsonParam(q.filter_expression, "filter_expression") : undefined,
    search: q.search?.trim() || undefined,
    sortBy,
    sortOrder,
    limit: queryInt(q.limit, "limit", { min: 1, max: MAX_LIST_LIMIT, fallback: 100 }),
    offset: queryInt(q.offset, "offset", { min: 0, max: MAX_LIST_OFFSET, fallback: 0 }),
  };
}

export function listView(db: Db, q: Record<string, string | undefined>) {
  const query = parseListQuery(q);
  const fields = parseFields(q.fields);
  const { items, total } = listTransactions(db, query);
  return {
    items: items.map((t) => project(transactionView(db, t), fields)),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}
