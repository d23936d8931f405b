/**
 * The one place errors become HTTP responses: `{ "detail": string }` with the status from `httpStatusOf`.
 * queue_full carries the spec's body (error, message, current_depth, max_depth) next to detail; invalid project
 * settings add `problems` (one string per problem).
 */
import { DocprocError, httpStatusOf } from "../core/errors";

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function errorResponse(err: unknown): Response {
  if (err instanceof DocprocError) {
    const status = httpStatusOf(err);
    if (err.code === "queue_full") {
      return jsonResponse({ error: "queue_full", message: err.message, detail: err.message, ...err.details }, status, {
        "retry-after": "30",
      });
    }
    if (err.code === "invalid_settings" && Array.isArray(err.details?.problems)) {
      // Every problem, one string each, next to the detail that lists them too.
      return jsonResponse({ detail: err.message, problems: err.details.problems }, status);
    }
    return jsonResponse({ detail: err.message }, status);
  }
  return jsonResponse({ detail: "Internal server error" }, 500);
}

/** Maps Elysia's own errors (unknown route, unparsable body) onto DocprocError. */
export function fromFrameworkError(code: unknown, error: unknown): DocprocError | unknown {
  if (error instanceof DocprocError) return error;
  if (code === "NOT_FOUND") return new DocprocError("not_found", "Not found");
  if (code === "PARSE") return new DocprocError("invalid_input", "Request body could not be parsed");
  if (code === "VALIDATION") return new DocprocError("invalid_input", (error as Error).message);
  return error;
}
