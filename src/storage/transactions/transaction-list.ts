/**
 * The GET /transactions query: filters, free-text search, sorting (including `idx_<name>`) and paging.
 * `filterExpression`, when given, replaces status, step, date and index filters (spec).
 */
import { pushAll } from "../../core/arrays";
import { DocprocError } from "../../core/errors";
import { isPostgres, type Db } from "../schema/db";
import { compileFilter, type Dialect } from "./filter-expression";
import { SUMMARY_COLUMNS, toSummary, type SummaryRow, type TransactionSummary } from "./transactions";

export interface ListQuery {
  tenantId?: string;
  projectId?: string;
  datasetId: string;
  status?: string[];
  step?: string;
  /** ISO timestamps, inclusive. */
  dateFrom?: string;
  dateTo?: string;
  indexFilter?: Record<string, string[]>;
  filterExpression?: unknown;
  search?: string;
  sortBy: string;
  sortOrder: "asc" | "desc";
  limit: number;
  offset: number;
}

export const SORT_COLUMNS: Record<string, string> = {
  created_at: "t.created_at",
  status: "t.status",
  processing_time_seconds: "t.processing_time_seconds",
  transaction_id: "t.transaction_id",
  priority: "t.priority",
  completed_at: "t.completed_at",
};

type Param = string | number | null;

function whereOf(q: ListQuery, dialect: Dialect): { sql: string; params: Param[] } {
  const parts: string[] = ["t.dataset_id = ?"];
  const params: Param[] = [q.datasetId];
  const add = (sql: string, p: Param[] = []) => {
    parts.push(sql);
    pushAll(params, p);
  };
  if (q.tenantId) add("t.tenant_id = ?", [q.tenantId]);
  if (q.projectId) add("t.project_id = ?", [q.projectId]);
  if (q.filterExpression !== undefined) {
    const f = compileFilter(q.filterExpression, "filter_expression", dialect);
    add(f.sql, f.params);
  } else {
    if (q.status?.length) add(`t.status IN (${q.status.map(() => "?").join(",")})`, q.status);
    if (q.step) add("COALESCE(t.current_step, 'created') = ?", [q.step]); // not started yet: step `created`
    if (q.dateFrom) add("t.created_at >= ?", [q.dateFrom]);
    if (q.dateTo) add("t.created_at <= ?", [q.dateTo]);
    for (const [name, values] of Object.entries(q.indexFilter ?? {})) {
      if (values.length === 0) continue;
      add(
        `EXISTS (SELECT 1 FROM transaction_index i WHERE i.transaction_id = t.transaction_id AND i.name = ? AND i.value IN (${values.map(() => "?").join(",")}))`,
        [name, ...values],
      );
    }
  }
  if (q.search) {
    // Case-insensitive on both engines (SQLite's LIKE already is for ASCII; PostgreSQL's is not).
    const like = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    add(
      `(LOWER(t.transaction_id) LIKE ? ESCAPE '\\' OR LOWER(t.correlation_id) LIKE ? ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM source_files f WHERE f.transaction_id = t.transaction_id AND LOWER(f.filename) LIKE ? ESCAPE '\\')
        OR EXISTS (SELECT 1 FROM documents d WHERE d.transaction_id = t.transaction_id AND LOWER(d.document_type) LIKE ? ESCAPE '\\')
        OR EXISTS (SELECT 1 FROM transaction_index i WHERE i.transaction_id = t.transaction_id AND LOWER(i.value) LIKE ? ESCAPE '\\'))`,
      [like, like, like, like, like],
    );
  }
  return { sql: parts.join(" AND "), params };
}

function orderOf(q: ListQuery): { sql: string; params: Param[] } {
  // SQLite's NULL order (NULL is the smallest value), spelled out so PostgreSQL sorts the same.
  const dir = q.sortOrder === "asc" ? "ASC NULLS FIRST" : "DESC NULLS LAST";
  if (q.sortBy.startsWith("idx_") && q.sortBy.length > 4) {
    return {
      sql: `(SELECT i.value FROM transaction_index i WHERE i.transaction_id = t.transaction_id AND i.name = ?) ${dir}, t.created_at ${dir}, t.transaction_id ${dir}`,
      params: [q.sortBy.slice(4)],
    };
  }
  const col = SORT_COLUMNS[q.sortBy];
  if (!col)
    throw new DocprocError(
      "invalid_input",
      `sort_by: unknown value ${JSON.stringify(q.sortBy)}; allowed: ${Object.keys(SORT_COLUMNS).join(", ")}, idx_<name>`,
    );
  return { sql: `${col} ${dir}, t.transaction_id ${dir}`, params: [] };
}

export function listTransactions(db: Db, q: ListQuery): { items: TransactionSummary[]; total: number } {
  const where = whereOf(q, isPostgres(db) ? "postgres" : "sqlite");
  const order = orderOf(q);
  // stack-safe: the parameters of one request's query string (its URL is bounded by the server's header limit).
  const total = db
    .query<{ n: number }, Param[]>(`SELECT COUNT(*) AS n FROM transactions t WHERE ${where.sql}`)
    .get(...where.params)!.n;
  const rows = db
    .query<SummaryRow, Param[]>(
      `SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
    )
    // stack-safe: as above, plus one sort parameter.
    .all(...where.params, ...order.params, q.limit, q.offset);
  return { items: rows.map(toSummary), total };
}
