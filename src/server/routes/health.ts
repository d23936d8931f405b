/** GET /health: database, queue depth, OCR engine readiness. Public and never rate limited. */
import { Elysia } from "elysia";
import pkg from "../../../package.json" with { type: "json" };
import { ping } from "../../storage/db";
import { queueDepth } from "../../storage/jobs";
import type { ServerDeps } from "../deps";

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
