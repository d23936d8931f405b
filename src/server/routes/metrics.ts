/**
 * GET /metrics: Prometheus text format (docs/operations.md). Not public: the admin key (X-API-Key or X-Admin-Key)
 * or, for a scraper that should hold nothing stronger, DOCPROC_METRICS_TOKEN as `Authorization: Bearer <token>`
 * (Prometheus' `authorization` / `bearer_token` setting; the admin key works there too). Never rate limited: a
 * scraper polls on a fixed interval and a gap in its series is worse than the load.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { ServerDeps } from "../deps";
import { jsonResponse } from "../errors";
import type { Telemetry } from "../observe";
import { err, documentRoutes, type RouteDoc } from "../route-doc";

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
const same = (a: Buffer, b: string) => timingSafeEqual(a, digest(b));

export function metricsAuthorized(
  request: Request,
  adminKey: string,
  metricsToken: string | null | undefined,
): boolean {
  const admin = digest(adminKey);
  const token = metricsToken ? digest(metricsToken) : null;
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim();
  if (bearer && (same(admin, bearer) || (token !== null && same(token, bearer)))) return true;
  for (const h of ["x-api-key", "x-admin-key"]) {
    const v = request.headers.get(h);
    if (v && same(admin, v)) return true;
  }
  return false;
}

export function metricsRoutes(deps: ServerDeps, telemetry: Telemetry) {
  return new Elysia({ name: "metrics" }).get("/metrics", async ({ request }) => {
    if (!metricsAuthorized(request, deps.config.adminApiKey, deps.config.metricsToken)) {
      return jsonResponse(
        {
          detail:
            "GET /metrics needs the admin key (X-API-Key) or the metrics token (Authorization: Bearer, DOCPROC_METRICS_TOKEN)",
        },
        401,
        { "www-authenticate": 'Bearer realm="docproc metrics"' },
      );
    }
    return new Response(await telemetry.metrics.render(), {
      headers: { "content-type": telemetry.metrics.contentType, "cache-control": "no-store" },
    });
  });
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const METRICS_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics of this process (text format; docs/operations.md)",
    tag: "Service",
    public: true,
    security: [{ metricsToken: [] }, { apiKey: [] }, { adminKey: [] }],
    responses: {
      200: { description: "Prometheus text exposition format 0.0.4", content: "text/plain" },
      401: err("Neither the admin key nor the metrics token"),
    },
  },
];
documentRoutes(METRICS_ROUTE_DOCS);
