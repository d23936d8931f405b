/**
 * The access log and the HTTP metrics: one log line and one observation per request, labelled with the route
 * template (`/transactions/:transaction_id`), never the concrete path, so ids stay out of metric labels.
 *
 * Logged: method, route, status, duration, the API key id or principal kind. Never: a key, token, query string,
 * header value or body.
 */
import type { Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";

export interface Telemetry {
  log: Logger;
  metrics: Metrics;
}

export interface Caller {
  kind: string;
  keyId?: string | null;
  tenantId?: string | null;
}

const starts = new WeakMap<Request, number>();
const rejections = new WeakMap<Request, string>();
const done = new WeakSet<Request>();

export function observeStart(request: Request): void {
  starts.set(request, performance.now());
}

/** Which limit refused a request with 429 (requests, sign_in, async, queue_full), for the metric's label. */
export function noteRejection(request: Request, limit: string): void {
  rejections.set(request, limit);
}

/** Logs and counts a finished request once (a re-dispatched request is observed by its inner handling only). */
export function observeEnd(t: Telemetry, request: Request, status: number, route: string, caller: Caller | null): void {
  const t0 = starts.get(request);
  if (t0 === undefined || done.has(request)) return;
  done.add(request);
  const seconds = (performance.now() - t0) / 1000;
  const method = request.method;
  t.metrics.httpRequests.inc({ method, route, status: String(status) });
  t.metrics.httpDuration.observe({ method, route }, seconds);
  if (status === 429) t.metrics.rateLimitRejections.inc({ limit: rejections.get(request) ?? "other" });
  const level = status >= 500 ? "error" : "info";
  if (!t.log.isLevelEnabled(level)) return;
  t.log[level](
    {
      event: "http_request",
      method,
      route,
      status,
      duration_ms: Math.round(seconds * 100_000) / 100,
      principal: caller?.kind ?? "anonymous",
      ...(caller?.keyId ? { key_id: caller.keyId } : {}),
      ...(caller?.tenantId ? { tenant_id: caller.tenantId } : {}),
    },
    `${method} ${route} ${status}`,
  );
}
