/**
 * Request validation with zod. MUST turn every problem into one `invalid_input` whose detail names each offending
 * field (`source_files[0].split_policy: ...`), so clients can fix all of them in one go.
 */
import { z } from "zod";
import { DocprocError } from "../core/errors";

export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "body";
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.infer<S> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const problems = res.error.issues.map((i) => {
    const p = pathOf(i.path);
    const name = !prefix ? p : p === "body" ? prefix : p.startsWith("[") ? `${prefix}${p}` : `${prefix}.${p}`;
    return `${name}: ${i.message}`;
  });
  throw new DocprocError("invalid_input", `Invalid request: ${problems.join("; ")}`, { details: { fields: res.error.issues.map((i) => pathOf(i.path)) } });
}

/**
 * Reads a JSON body; an empty body counts as `{}`. The Content-Type is not required (`curl -d` sends form
 * encoding), but a body that is not JSON under a non-JSON type is a 415 saying so; under a JSON type (or none), 400.
 */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type && !type.includes("json")) {
      throw new DocprocError("unsupported_format", `Request body must be JSON (Content-Type: application/json), got ${type}`);
    }
    throw new DocprocError("invalid_input", "Request body is not valid JSON");
  }
}

/** Query booleans: true/1/yes and false/0/no. */
export function queryBool(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "") return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new DocprocError("invalid_input", `${name}: expected true or false`);
}

export function queryInt(value: string | undefined, name: string, opts: { min?: number; max?: number; fallback: number }): number;
export function queryInt(value: string | undefined, name: string, opts: { min?: number; max?: number; fallback?: undefined }): number | undefined;
export function queryInt(value: string | undefined, name: string, opts: { min?: number; max?: number; fallback?: number }): number | undefined {
  if (value === undefined || value === "") return opts.fallback;
  if (!/^-?\d+$/.test(value)) throw new DocprocError("invalid_input", `${name}: expected an integer`);
  const n = Number(value);
  if (opts.min !== undefined && n < opts.min) throw new DocprocError("invalid_input", `${name}: must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw new DocprocError("invalid_input", `${name}: must be at most ${opts.max}`);
  return n;
}
