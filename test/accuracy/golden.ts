/**
 * Golden results: a results file normalised so that two runs of the same code give the same JSON (volatile values
 * become placeholders: they stay in the file, so a field that appears or vanishes still shows), and a readable
 * difference of two JSON values as `path: expected → got` lines.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
/** Keys whose values are times taken while running (never a property of the document). */
const DURATION_KEY = /(^seconds$|_ms$|^ms$|duration|elapsed)/i;

/**
 * `value` with ids (UUIDs, numbered in order of first appearance so that references between them still match),
 * timestamps, durations and the repository's absolute path replaced by placeholders.
 */
export function normalizeResults(value: unknown, repoRoot: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (typeof v === "number" && DURATION_KEY.test(key)) return "<duration>";
    if (typeof v !== "string") return v;
    if (UUID.test(v)) {
      if (!ids.has(v)) ids.set(v, `<id ${ids.size + 1}>`);
      return ids.get(v);
    }
    if (ISO_TIME.test(v)) return "<timestamp>";
    return v.split(repoRoot).join("<repo>");
  };
  return walk(value, "");
}

/** A value as JSON, cut to a readable length (the golden file's diff in review shows the rest). */
const show = (v: unknown) => {
  if (v === undefined) return "(absent)";
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 150)}… (${s.length} chars)` : s;
};

/** Where `got` differs from `expected`, one line per differing leaf: `path: expected → got`. */
export function jsonDiff(expected: unknown, got: unknown, at = ""): string[] {
  const isObj = (v: unknown) => v !== null && typeof v === "object";
  if (isObj(expected) && isObj(got) && Array.isArray(expected) === Array.isArray(got)) {
    const keys = Array.isArray(expected)
      ? Array.from({ length: Math.max(expected.length, (got as unknown[]).length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(expected as object), ...Object.keys(got as object)])];
    return keys.flatMap((k) =>
      jsonDiff(
        (expected as Record<string, unknown>)[k],
        (got as Record<string, unknown>)[k],
        Array.isArray(expected) ? `${at}[${k}]` : at ? `${at}.${k}` : k,
      ),
    );
  }
  return JSON.stringify(expected) === JSON.stringify(got)
    ? []
    : [`${at || "(root)"}: ${show(expected)} → ${show(got)}`];
}
