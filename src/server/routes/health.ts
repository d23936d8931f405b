/** GET /health: database, queue depth, OCR engine readiness. Public and never rate limited. */
import { Elysia } from "elysia";
import pkg from "../../../package.json" with { type: "json" };
import { ping } from "../../storage/schema/db";
import { queueDepth } from "../../storage/jobs/jobs";
import type { ServerDeps } from "../deps";
import { documentRoutes, type RouteDoc } from "../route-doc";
import { HealthResponse } from "../schemas-responses";

export function healthRoutes(deps: ServerDeps) {
  return new Elysia({ name: "health" }).get("/health", ({ set }) => {
    let database: { status: "ok" | "error"; error?: string } = { status: "ok" };
    let depth = 0;
    try {
      ping(deps.db);
      depth = queueDepth(deps.db);
    } catch (err) {
      database = { status: "error", error: (err as Error).message };
    }
    const ocr = deps.ocrStatus();
    const ok = database.status === "ok" && ocr.status !== "error";
    if (database.status !== "ok") set.status = 503;
    return {
      status: ok ? ("ok" as const) : ("degraded" as const),
      version: pkg.version,
      database,
      queue: { depth, max_depth: deps.config.maxQueueDepth, running: deps.running(), workers: deps.workers },
      ocr,
    };
  });
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const HEALTH_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/health",
    summary: "Health: database, queue depth, OCR readiness",
    tag: "Service",
    public: true,
    responses: {
      200: { description: "Healthy or degraded", schema: HealthResponse },
      503: { description: "Database unavailable", schema: HealthResponse },
    },
  },
];
documentRoutes(HEALTH_ROUTE_DOCS);
