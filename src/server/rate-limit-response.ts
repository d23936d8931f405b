/**
 * Rate limits over HTTP (the limiting itself is auth/rate-limit.ts): the X-RateLimit-* headers of every rate-limited response, and the two 429 forms.
 *
 * - Sync limit (requests per minute / hour): 429, Retry-After, X-RateLimit-*, and the general error body
 *   `{ "detail": "Rate limit exceeded: 600 requests per minute. Try again in 42 seconds." }` (the spec's plain
 *   message, kept in the one error shape every client already parses).
 * - Async limit (task submissions per hour): 429, Retry-After, X-RateLimit-*, and the spec's body
 *   `{ error: "rate_limit_exceeded", message, retry_after, limit, window, reset_at }` (+ `detail` = message).
 */
import { DocprocError } from "../core/errors";
import type { Decision, RateRefusal, WindowReport } from "../auth/rate-limit";
import { jsonResponse } from "./errors";

/** Headers for the window being reported (the tightest one, or the one that refused). */
export function rateLimitHeaders(w: WindowReport): Record<string, string> {
  return {
    "x-ratelimit-limit": String(w.limit),
    "x-ratelimit-remaining": String(w.remaining),
    "x-ratelimit-reset": String(Math.ceil(w.resetAt / 1000)),
    "x-ratelimit-window": String(Math.round(w.lengthMs / 1000)),
  };
}

const windowName = (w: WindowReport) =>
  w.lengthMs === 60_000 ? "minute" : w.lengthMs === 3600_000 ? "hour" : `${Math.round(w.lengthMs / 1000)}s`;

/** The 429 for a refused request, or null when `err` is not a rate-limit refusal. */
export function rateLimitResponse(err: unknown): Response | null {
  if (!(err instanceof DocprocError) || err.code !== "rate_limited") return null;
  const refusal = err.details as RateRefusal | undefined;
  const decision: Decision | undefined = refusal?.decision;
  if (!decision) return null;
  const headers = { ...rateLimitHeaders(decision.window), "retry-after": String(decision.retryAfterSeconds) };
  if (!refusal!.async) return jsonResponse({ detail: err.message }, 429, headers);
  const w = decision.window;
  return jsonResponse(
    {
      error: "rate_limit_exceeded",
      message: err.message,
      detail: err.message,
      retry_after: decision.retryAfterSeconds,
      limit: w.limit,
      window: windowName(w),
      reset_at: new Date(w.resetAt).toISOString(),
    },
    429,
    headers,
  );
}
