/**
 * filter_expression of GET /transactions: a JSON tree of and/or/not over field comparisons, compiled to a
 * parameterised SQL condition on `transactions t` (values are always bound, never spliced).
 *
 *   Expr := {"and": [Expr, ...]} | {"or": [Expr, ...]} | {"not": Expr} | {"field": Field, "op": Op, "value": Value}
 *   Field := transaction_id | status | step | correlation_id | dataset_id | project_id | source | created_at
 *          | started_at | completed_at | processing_time_seconds | priority | page_limit
 *          | document_type | file_name | metadata.<key> | idx_<name>
 *   Op := eq | ne | lt | lte | gt | gte | in | nin | contains | starts_with | exists
 *
 * `in`/`nin` take an array (≤ 100 values); `exists` takes true/false; the rest take a string, number or boolean.
 * MUST reject anything else with `invalid_input` naming the offending path (e.g. `filter_expression.and[1].op`).
 */
import { DocprocError } from "../../core/errors";

export type FilterExpr =
  | { and: FilterExpr[] }
  | { or: FilterExpr[] }
  | { not: FilterExpr }
  | { field: string; op: FilterOp; value?: unknown };

export const FILTER_OPS = [
  "eq",
  "ne",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "nin",
  "contains",
  "starts_with",
  "exists",
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export const FILTER_COLUMNS: Record<string, string> = {
  transaction_id: "t.transaction_id",
  status: "t.status",
  // A transaction not started yet has no step written; it reports `created` (server/services/status.ts).
  step: "COALESCE(t.current_step, 'created')",
  correlation_id: "t.correlation_id",
  dataset_id: "t.dataset_id",
  project_id: "t.project_id",
  source: "t.source",
  created_at: "t.created_at",
  started_at: "t.started_at",
  completed_at: "t.completed_at",
  processing_time_seconds: "t.processing_time_seconds",
  priority: "t.priority",
  page_limit: "t.page_limit",
};

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
const MAX_NODES = 200;
const MAX_DEPTH = 12;

type Sql = { sql: string; params: Array<string | number | null> };

const bad = (where: string, msg: string) =>
  new DocprocError("invalid_input", `${where}: ${msg}`, { details: { field: where } });

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function scalar(where: string, v: unknown): string | number {
  if (typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  throw bad(where, "value must be a string, number or boolean");
}

/** The SQL operand for a field, or a correlated subquery template (`?x` stands for the comparison). */
function operand(
  where: string,
  field: unknown,
  dialect: Dialect,
  value: unknown,
): { expr: string; params: Sql["params"] } | { exists: string; params: Sql["params"] } {
  if (typeof field !== "string") throw bad(`${where}.field`, "must be a string");
  if (FILTER_COLUMNS[field]) return { expr: FILTER_COLUMNS[field], params: [] };
  if (field === "document_type")
    return {
      exists: "SELECT 1 FROM documents d WHERE d.transaction_id = t.transaction_id AND d.document_type ?x",
      params: [],
    };
  if (field === "file_name")
    return {
      exists: "SELECT 1 FROM source_files f WHERE f.transaction_id = t.transaction_id AND f.filename ?x",
      params: [],
    };
  if (field.startsWith("metadata.") && NAME.test(field.slice(9))) {
    // A row whose metadata SQLite cannot parse (nested past its 1,000 levels, stored before bodies were capped)
    // matches nothing instead of failing the whole list.
    if (dialect === "postgres") return pgMetadata(field.slice(9), value);
    return {
      expr: "CASE WHEN json_valid(t.metadata) THEN json_extract(t.metadata, ?) END",
      params: [`$.${field.slice(9)}`],
    };
  }
  if (field.startsWith("idx_") && NAME.test(field.slice(4))) {
    return {
      expr: "(SELECT i.value FROM transaction_index i WHERE i.transaction_id = t.transaction_id AND i.name = ?)",
      params: [field.slice(4)],
    };
  }
  throw bad(
    `${where}.field`,
    `unknown field ${JSON.stringify(field)}; allowed: ${[...Object.keys(FILTER_COLUMNS), "document_type", "file_name", "metadata.<key>", "idx_<name>"].join(", ")}`,
  );
}

function comparison(where: string, op: unknown, value: unknown): Sql {
  const cmp: Record<string, string> = { eq: "=", ne: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=" };
  if (typeof op !== "string" || !(FILTER_OPS as readonly string[]).includes(op)) {
    throw bad(`${where}.op`, `unknown operator ${JSON.stringify(op)}; allowed: ${FILTER_OPS.join(", ")}`);
  }
  if (cmp[op]) return { sql: `${cmp[op]} ?`, params: [scalar(`${where}.value`, value)] };
  if (op === "in" || op === "nin") {
    if (!Array.isArray(value) || value.length === 0 || value.length > 100)
      throw bad(`${where}.value`, "must be an array of 1 to 100 values");
    const params = value.map((v, i) => scalar(`${where}.value[${i}]`, v));
    return { sql: `${op === "nin" ? "NOT IN" : "IN"} (${params.map(() => "?").join(",")})`, params };
  }
  if (op === "contains" || op === "starts_with") {
    if (typeof value !== "string") throw bad(`${where}.value`, "must be a string");
    return { sql: "LIKE ? ESCAPE '\\'", params: [`${op === "contains" ? "%" : ""}${escapeLike(value)}%`] };
  }
  if (typeof value !== "boolean") throw bad(`${where}.value`, "must be true or false for exists");
  return { sql: value ? "IS NOT NULL" : "IS NULL", params: [] };
}

/**
 * PostgreSQL: a metadata key compared as SQLite's json_extract would, a number with numbers (booleans are 1/0)
 * and text with text; a key of another JSON type matches nothing.
 */
function pgMetadata(key: string, value: unknown): { expr: string; params: Sql["params"] } {
  const v = "(t.metadata::jsonb -> ?)";
  if (typeof value === "number" || typeof value === "boolean") {
    return {
      expr: `(CASE jsonb_typeof${v} WHEN 'number' THEN (t.metadata::jsonb ->> ?)::double precision WHEN 'boolean' THEN CASE WHEN (t.metadata::jsonb ->> ?) = 'true' THEN 1 ELSE 0 END END)`,
      params: [key, key, key],
    };
  }
  return {
    expr: `(CASE WHEN jsonb_typeof${v} IN ('string', 'number') THEN (t.metadata::jsonb ->> ?) END)`,
    params: [key, key],
  };
}

export type Dialect = "sqlite" | "postgres";

export function compileFilter(expr: unknown, where = "filter_expression", dialect: Dialect = "sqlite"): Sql {
  let nodes = 0;
  const walk = (e: unknown, at: string, depth: number): Sql => {
    if (++nodes > MAX_NODES) throw bad(at, `expression has more than ${MAX_NODES} nodes`);
    if (depth > MAX_DEPTH) throw bad(at, `expression nests deeper than ${MAX_DEPTH}`);
    if (typeof e !== "object" || e === null || Array.isArray(e)) throw bad(at, "must be an object");
    const o = e as Record<string, unknown>;
    const keys = Object.keys(o);
    for (const junction of ["and", "or"] as const) {
      if (junction in o) {
        if (keys.length !== 1) throw bad(at, `"${junction}" must be the only key`);
        const list = o[junction];
        if (!Array.isArray(list) || list.length === 0) throw bad(`${at}.${junction}`, "must be a non-empty array");
        const parts = list.map((x, i) => walk(x, `${at}.${junction}[${i}]`, depth + 1));
        return {
          sql: `(${parts.map((p) => p.sql).join(junction === "and" ? " AND " : " OR ")})`,
          params: parts.flatMap((p) => p.params),
        };
      }
    }
    if ("not" in o) {
      if (keys.length !== 1) throw bad(at, `"not" must be the only key`);
      const inner = walk(o.not, `${at}.not`, depth + 1);
      return { sql: `(NOT ${inner.sql})`, params: inner.params };
    }
    const extra = keys.filter((k) => !["field", "op", "value"].includes(k));
    if (extra.length) throw bad(at, `unknown key(s) ${extra.join(", ")}; expected and, or, not, or field/op/value`);
    const target = operand(at, o.field, dialect, o.value);
    const c = comparison(at, o.op, o.value);
    if ("exists" in target) {
      // document_type / file_name: true when ANY document / file matches; `exists` asks whether any is present.
      const inner = target.exists.replace("?x", o.op === "exists" ? "IS NOT NULL" : c.sql);
      const params = o.op === "exists" ? [] : c.params;
      const negate = o.op === "exists" && o.value === false;
      return { sql: `(${negate ? "NOT " : ""}EXISTS (${inner}))`, params: [...target.params, ...params] };
    }
    return { sql: `(${target.expr} ${c.sql})`, params: [...target.params, ...c.params] };
  };
  return walk(expr, where, 0);
}
