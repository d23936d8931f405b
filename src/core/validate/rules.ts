/**
 * Validation rules, one function per rule type. A rule that cannot apply (its fields are missing on the document
 * or empty, except for `required`) returns null: "not applicable" is neither success nor failure.
 */
import type { DocumentResult, FieldValue, RuleResult } from "../model";
import type { ValidationRule } from "../project";

type Fields = DocumentResult["fields"];

const isEmpty = (v: FieldValue | undefined) =>
  v === null || v === undefined || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);
const num = (v: FieldValue | undefined): number | null =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const fmt = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

function result(rule: ValidationRule, ok: boolean, message: string, field_ids: string[]): RuleResult {
  return { rule_id: rule.id, status: ok ? "success" : rule.severity, message, field_ids };
}

/**
 * The value of a term of a `sum_equals` rule when the document lacks it: solved from the rule's other terms (a
 * missing subtotal is total − tax; a missing tax counts 0). Null when the rule cannot give it.
 */
function derived(id: string, fields: Fields, rules: ValidationRule[]): { value: number; how: string } | null {
  for (const r of rules) {
    if (r.type !== "sum_equals" || !r.fields.includes(id)) continue;
    const total = num(fields[r.total]?.value);
    if (total === null) continue;
    const others = r.fields.filter((f) => f !== id);
    const value = others.reduce((v, f) => v - (num(fields[f]?.value) ?? 0), total);
    return { value, how: `${r.total}${others.map((f) => ` − ${f}`).join("")}` };
  }
  return null;
}

/**
 * Evaluates one per-document rule; null when it does not apply to these fields. `rules` (the project's) lets a
 * table sum be checked against a total the document lacks but its other sums give (items against total − tax).
 */
export function evaluateRule(rule: ValidationRule, fields: Fields, rules: ValidationRule[] = []): RuleResult | null {
  switch (rule.type) {
    case "required": {
      if (!(rule.field in fields)) return null;
      const ok = !isEmpty(fields[rule.field]!.value);
      return result(rule, ok, ok ? `${rule.field} is present` : `${rule.field} is required but was not found`, [
        rule.field,
      ]);
    }
    case "pattern": {
      const v = fields[rule.field]?.value;
      if (isEmpty(v) || typeof v === "object") return null;
      const ok = new RegExp(rule.pattern, "u").test(String(v));
      return result(
        rule,
        ok,
        ok ? `${rule.field} matches ${rule.pattern}` : `${rule.field} "${v}" does not match ${rule.pattern}`,
        [rule.field],
      );
    }
    case "range": {
      const n = num(fields[rule.field]?.value);
      if (n === null) return null;
      const ok = (rule.min === undefined || n >= rule.min) && (rule.max === undefined || n <= rule.max);
      const bounds = `[${rule.min ?? "-∞"}, ${rule.max ?? "∞"}]`;
      return result(
        rule,
        ok,
        ok ? `${rule.field} ${n} is within ${bounds}` : `${rule.field} ${n} is outside ${bounds}`,
        [rule.field],
      );
    }
    case "allowed_values": {
      const v = fields[rule.field]?.value;
      if (isEmpty(v) || typeof v === "object") return null;
      const ok = rule.values.some((a) => a.toLowerCase() === String(v).toLowerCase());
      return result(
        rule,
        ok,
        ok ? `${rule.field} "${v}" is allowed` : `${rule.field} "${v}" is not one of ${rule.values.join(", ")}`,
        [rule.field],
      );
    }
    case "sum_equals":
      return sumEquals(rule, fields);
    case "table_sum_equals":
      return tableSumEquals(rule, fields, rules);
    case "date_order": {
      const before = fields[rule.before]?.value;
      const after = fields[rule.after]?.value;
      if (
        typeof before !== "string" ||
        typeof after !== "string" ||
        !/^\d{4}-\d{2}-\d{2}/.test(before) ||
        !/^\d{4}-\d{2}-\d{2}/.test(after)
      )
        return null;
      const ok = after >= before;
      return result(
        rule,
        ok,
        ok
          ? `${rule.after} ${after} is not before ${rule.before} ${before}`
          : `${rule.after} ${after} is before ${rule.before} ${before}`,
        [rule.before, rule.after],
      );
    }
    case "unique_in_transaction":
      return null; // a transaction rule: see uniqueInTransaction
  }
}

type RuleOf<T extends ValidationRule["type"]> = Extract<ValidationRule, { type: T }>;

/** `sum_equals`: the parts add up to the total within the tolerance. */
function sumEquals(rule: RuleOf<"sum_equals">, fields: Fields): RuleResult | null {
  const parts = rule.fields.map((f) => num(fields[f]?.value));
  const total = num(fields[rule.total]?.value);
  if (total === null || parts.some((p) => p === null)) return null;
  const sum = parts.reduce((a, b) => a! + b!, 0)!;
  const ok = Math.abs(sum - total) <= rule.tolerance + 1e-9;
  const ids = [...rule.fields, rule.total];
  return result(
    rule,
    ok,
    `${rule.fields.join(" + ")} = ${fmt(sum)}${ok ? " equals" : " differs from"} ${rule.total} ${fmt(total)} (tolerance ${rule.tolerance})`,
    ids,
  );
}

/**
 * `table_sum_equals`: a table column adds up to the total, a derived total when the document prints none, or an
 * alternative printed total (`or_totals`).
 */
function tableSumEquals(rule: RuleOf<"table_sum_equals">, fields: Fields, rules: ValidationRule[]): RuleResult | null {
  const rows = fields[rule.table]?.value;
  const printed = num(fields[rule.total]?.value);
  const solved = printed === null ? derived(rule.total, fields, rules) : null;
  const total = printed ?? solved?.value ?? null;
  if (!Array.isArray(rows) || !rows.length || total === null) return null;
  // A row whose amount was not read does not stop the check: the amounts read must still add up.
  const values = rows.map((r) => num(r[rule.column])).filter((v): v is number => v !== null);
  if (!values.length) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  const equal = (t: number) => Math.abs(sum - t) <= rule.tolerance + 1e-9;
  // An alternative total (printed, never derived) is accepted as it is: gross line prices add up to the total.
  const alternative = equal(total)
    ? undefined
    : rule.or_totals.find((f) => {
        const t = num(fields[f]?.value);
        return t !== null && equal(t);
      });
  if (alternative)
    return result(
      rule,
      true,
      `sum of ${rule.table}.${rule.column} = ${fmt(sum)} equals ${alternative} ${fmt(num(fields[alternative]?.value)!)} (line amounts include tax; tolerance ${rule.tolerance})`,
      [rule.table, alternative],
    );
  const ok = equal(total);
  const what = solved ? `${rule.total} (as ${solved.how})` : rule.total;
  return result(
    rule,
    ok,
    `sum of ${rule.table}.${rule.column} = ${fmt(sum)}${ok ? " equals" : " differs from"} ${what} ${fmt(total)} (tolerance ${rule.tolerance})`,
    solved
      ? [
          rule.table,
          rule.total,
          ...rules.flatMap((r) => (r.type === "sum_equals" && r.fields.includes(rule.total) ? [r.total] : [])),
        ]
      : [rule.table, rule.total],
  );
}

/** `unique_in_transaction`: the field's value must not repeat across the documents it applies to. */
export function uniqueInTransaction(
  rule: Extract<ValidationRule, { type: "unique_in_transaction" }>,
  docs: DocumentResult[],
): RuleResult | null {
  const seen = new Map<string, number[]>();
  for (const d of docs) {
    const v = d.fields[rule.field]?.value;
    if (isEmpty(v) || typeof v === "object") continue;
    const key = String(v).trim().toLowerCase();
    seen.set(key, [...(seen.get(key) ?? []), d.document_index]);
  }
  if (!seen.size) return null;
  const dupes = [...seen].filter(([, idx]) => idx.length > 1);
  const ok = dupes.length === 0;
  const message = ok
    ? `${rule.field} is unique across ${docs.length} document(s)`
    : dupes.map(([v, idx]) => `${rule.field} "${v}" appears in documents ${idx.join(", ")}`).join("; ");
  return result(rule, ok, message, [rule.field]);
}
