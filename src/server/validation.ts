/**
 * Request validation with zod. MUST turn every problem into one `invalid_input` whose detail names each offending
 * field (`source_files[0].split_policy: ...`), so clients can fix all of them in one go.
 */
import { z } from "zod";
import { DocprocError } from "../core/errors";

export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return (
    path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "body"
  );
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.infer<S> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const problems = res.error.issues.map((i) => {
    const p = pathOf(i.path);
    const name = !prefix ? p : p === "body" ? prefix : p.startsWith("[") ? `${prefix}${p}` : `${prefix}.${p}`;
    return `${name}: ${i.message}`;
  });
  throw new DocprocError("invalid_input", `Invalid request: ${problems.join("; ")}`, {
    details: { fields: res.error.issues.map((i) => pathOf(i.path)) },
  });
}

/**
 * Reads a JSON body; an empty body counts as `{}`. The Content-Type is not required (`curl -d` sends form
 * encoding), but a body that is not JSON under a non-JSON type is a 415 saying so; under a JSON type (or none), 400.
 */
export async function readJson(request: Request, maxDepth = MAX_JSON_DEPTH): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  checkJsonDepth(text, maxDepth, "Request body");
  try {
    return JSON.parse(text);
  } catch {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type && !type.includes("json")) {
      throw new DocprocError(
        "unsupported_format",
        `Request body must be JSON (Content-Type: application/json), got ${type}`,
      );
    }
    throw new DocprocError("invalid_input", "Request body is not valid JSON");
  }
}

/**
 * Deepest nesting of objects and arrays any JSON body may have. Real bodies (project settings, OCR data, metadata)
 * stay under 10; SQLite's JSON functions give up at 1,000, so a transaction whose metadata nests deeper made every
 * metadata-filtered list answer 500, and recursive code (validation, JSON.stringify) has its own stack limits.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * 400 when JSON text nests deeper than `maxDepth`, found by one linear scan before anything recursive (JSON.parse,
 * zod) sees it. Brackets inside strings do not count; malformed text is left to JSON.parse to report.
 */
export function checkJsonDepth(text: string, maxDepth: number, what: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth)
        throw new DocprocError("invalid_input", `${what} nests objects and arrays more than ${maxDepth} levels deep`, {
          details: { max_depth: maxDepth },
        });
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/**
 * Where the JSON string opened at `open` ends (its closing quote; the text's length when it never does): the next
 * quote not escaped, i.e. after an even number of backslashes. Found by indexOf rather than a character at a time:
 * a file of the one-step call is one base64 string (12.6 MB for a 9.4 MB PDF: 10 ms a character at a time).
 */
function stringEnd(text: string, open: number): number {
  for (let at = open; ; ) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/** JSON in a query parameter (filters): parsed after the same depth check as bodies. */
export function parseJsonParam(raw: string, name: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkJsonDepth(raw, maxDepth, name);
  try {
    return JSON.parse(raw);
  } catch {
    throw new DocprocError("invalid_input", `${name}: not valid JSON`);
  }
}

/** Query booleans: true/1/yes and false/0/no. */
export function queryBool(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "") return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new DocprocError("invalid_input", `${name}: expected true or false`);
}

export function queryInt(
  value: string | undefined,
  name: string,
  opts: { min?: number; max?: number; fallback: number },
): number;
export function queryInt(
  value: string | undefined,
  name: string,
  opts: { min?: number; max?: number; fallback?: undefined },
): number | undefined;
export function queryInt(
  value: string | undefined,
  name: string,
  opts: { min?: number; max?: number; fallback?: number },
): number | undefined {
  if (value === undefined || value === "") return opts.fallback;
  if (!/^-?\d+$/.test(value)) throw new DocprocError("invalid_input", `${name}: expected an integer`);
  const n = Number(value);
  // Beyond 2^53 a number is no longer exact, and SQLite refuses integers past 2^63 (a 500 before this check).
  if (!Number.isSafeInteger(n)) throw new DocprocError("invalid_input", `${name}: ${value} is out of range`);
  if (opts.min !== undefined && n < opts.min)
    throw new DocprocError("invalid_input", `${name}: must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max)
    throw new DocprocError("invalid_input", `${name}: must be at most ${opts.max}`);
  return n;
}
