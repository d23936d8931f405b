/**
 * The HTTP app: one Elysia instance per resource, composed here with the cross-cutting parts (auth, body limit,
 * error mapping). Errors become `{ "detail": string }` once, in errors.ts.
 */
import { closeIfBodyPending } from "./unread-body";
import { Elysia } from "elysia";
import { DocprocError } from "../core/errors";
import { createGuard } from "../auth/guard";
import { DEFAULT_AUTH_SETTINGS } from "../auth/settings";
import { authorizeRequest, callerOf } from "./auth";
import type { ServerDeps } from "./deps";
import { errorResponse, fromFrameworkError, jsonResponse } from "./errors";
import { createLongPoll, type LongPoll } from "./long-poll";
import { docsRoutes } from "./routes/docs";
import { healthRoutes } from "./routes/health";
import { adminRoutes } from "./routes/admin";
import { deliveryRoutes } from "./routes/deliveries";
import { authRoutes } from "./routes/auth";
import { captureRoutes } from "./routes/capture";
import { rateLimitResponse } from "./rate-limit-response";
import { projectRoutes } from "./routes/projects";
import { mailRoutes } from "./routes/mail";
import { learningRoutes } from "./routes/learning";
import { learnFromReviewHook } from "../queue/learn";
import { resultRoutes } from "./routes/results";
import { reviewRoutes } from "./routes/review";
import { databaseReviewStore } from "./services/review-store";
import { statusRoutes } from "./routes/status";
import { transactionRoutes } from "./routes/transactions";
import { homeRoutes } from "./routes/home";
import { metricsRoutes } from "./routes/metrics";
import { noteRejection, observeEnd, observeStart, type Telemetry } from "./observe";
import { notePublicBase } from "./proxy";
import { silentLogger } from "../telemetry/log";
import { createMetrics } from "../telemetry/metrics";
import { queueCounts } from "../storage/jobs/jobs";

function checkBodySize(request: Request, maxBodyBytes: number): void {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBodyBytes) {
    throw new DocprocError(
      "too_large",
      `Request body of ${length} bytes is larger than the ${maxBodyBytes}-byte limit`,
    );
  }
}

/** The path of an absolute request URL, without building a URL object (this runs for every request). */
export function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const q = url.indexOf("?", start);
  const h = url.indexOf("#", start);
  const end = q < 0 ? (h < 0 ? url.length : h) : h < 0 ? q : Math.min(q, h);
  return url.slice(start, end);
}

/** `/transactions/:id/exports/download/*` → a RegExp, for telling a wrong method (405) from an unknown path (404). */
const routePattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/:[^/]+/g, "[^/]+")
      .replace(/\*/g, ".*")}/?$`,
  );

export function createApp(
  deps: ServerDeps,
  longPoll: LongPoll = createLongPoll(deps.db, deps.notifier, deps.config.longPollRecheckMs, deps.clock),
) {
  const telemetry: Telemetry = deps.telemetry ?? {
    log: silentLogger,
    metrics: createMetrics({ queueCounts: () => queueCounts(deps.db) }),
  };
  // Learning from confirmed documents attaches to the one place a review ends (docs/memory.md).
  deps.onReviewFinished ??= [learnFromReviewHook(deps.db, deps.clock)];
  const guard = createGuard({
    db: deps.db,
    clock: deps.clock,
    adminApiKey: deps.config.adminApiKey,
    settings: deps.config.auth ?? DEFAULT_AUTH_SETTINGS,
  });
  // The hooks below need the finished app (its route list, and handle() to re-dispatch); set once it is built.
  const self: {
    handle?: (r: Request) => Promise<Response>;
    routes?: () => ReadonlyArray<{ method: string; path: string }>;
  } = {};
  const { methodsOf, templateOf } = routeIndex(() => self.routes!());
  const mapError = errorMapper(methodsOf, telemetry);
  // Elysia's router looks for the path from index 11 of the URL by default, which skips the first segment when
  // scheme and host are shorter (`http://api/…`, a typical container host name): routes served by Elysia's own
  // router (the download wildcard) then answered 404. The server speaks plain HTTP (TLS ends at a proxy), so every
  // request URL starts with `http://` and the path starts at the first `/` from index 7.
  const app = new Elysia({ handler: { standardHostname: false } })
    .onRequest(({ request, set, server }) => {
      // app.handle() callers may still pass https:// URLs: route them as the http:// URL they would arrive as.
      if (request.url.startsWith("https://"))
        return self.handle!(new Request(`http://${request.url.slice(8)}`, request));
      observeStart(request);
      if (deps.config.trustProxy) notePublicBase(request, deps.config.trustProxy, server?.requestIP(request)?.address);
      const pathname = pathnameOf(request.url);
      try {
        authorizeRequest(request, pathname, guard, set.headers as Record<string, string>);
        checkBodySize(request, deps.config.maxBodyBytes);
      } catch (err) {
        const refused = rateLimitResponse(err);
        if (refused) noteRejection(request, /sign-in/i.test((err as Error).message) ? "sign_in" : "requests");
        const response = closeIfBodyPending(request, refused ?? errorResponse(err));
        // Answered before routing: Elysia's after-response hook does not run, so the request is observed here.
        observeEnd(telemetry, request, response.status, templateOf(pathname), callerOf(request));
        return response;
      }
    })
    .onAfterResponse(({ request, route, set, response }) => {
      const status = response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200;
      observeEnd(telemetry, request, status, route || templateOf(pathnameOf(request.url)), callerOf(request));
    })
    .onStop(() => guard.close())
    .onError(({ code, error, request, set }) => {
      const response = closeIfBodyPending(request, mapError(code, error, request));
      set.status = response.status; // for the access log: a returned Response does not set it
      return response;
    })
    .use(homeRoutes())
    .use(metricsRoutes(deps, telemetry))
    .use(healthRoutes(deps))
    .use(docsRoutes(() => self.routes!()))
    .use(projectRoutes(deps))
    .use(mailRoutes(deps))
    .use(learningRoutes(deps))
    .use(transactionRoutes(deps))
    .use(statusRoutes(deps, longPoll))
    .use(resultRoutes(deps))
    .use(reviewRoutes(databaseReviewStore(deps)))
    .use(deliveryRoutes(deps))
    .use(captureRoutes(deps))
    .use(adminRoutes(deps, guard))
    .use(authRoutes(deps, guard));
  self.handle = (r) => app.handle(r);
  self.routes = () => app.routes;
  return app;
}

/** The app's route list, read once on first use: which methods a path has, which template it falls under. */
function routeIndex(listRoutes: () => ReadonlyArray<{ method: string; path: string }>) {
  let routes: Array<{ method: string; path: string; re: RegExp }> | null = null;
  /** The methods the app answers on `pathname` (empty: no such path). */
  const methodsOf = (pathname: string): string[] => {
    const list = (routes ??= listRoutes().map((r) => ({
      method: r.method.toUpperCase(),
      path: r.path,
      re: routePattern(r.path),
    })));
    return [...new Set(list.filter((r) => r.re.test(pathname)).map((r) => r.method))].sort();
  };
  /** The route template a path falls under, for logs and metric labels (never the path: ids stay out). */
  const templateOf = (pathname: string): string => {
    methodsOf("/"); // builds the route list once
    return routes!.find((r) => r.re.test(pathname))?.path ?? "(unmatched)";
  };
  return { methodsOf, templateOf };
}

/** Errors as responses: 405 with Allow on a known path, 404 on an unknown one, else errorResponse. */
function errorMapper(methodsOf: (pathname: string) => string[], telemetry: Telemetry) {
  return function mapError(code: unknown, error: unknown, request: Request): Response {
    if (code === "NOT_FOUND") {
      const pathname = pathnameOf(request.url);
      const allowed = methodsOf(pathname);
      if (allowed.length) {
        const allow = allowed.includes("GET") && !allowed.includes("HEAD") ? [...allowed, "HEAD"] : allowed;
        return jsonResponse(
          { detail: `Method ${request.method} is not allowed on ${pathname}; allowed: ${allow.join(", ")}` },
          405,
          { allow: allow.join(", ") },
        );
      }
      return jsonResponse({ detail: `Not found: no route for ${request.method} ${pathname}` }, 404);
    }
    const mapped = fromFrameworkError(code, error);
    if (!(mapped instanceof DocprocError)) {
      console.error("unhandled error:", error);
      telemetry.log.error({ event: "unhandled_error", err: error }, "unhandled error");
    } else if (mapped.code === "queue_full") noteRejection(request, "queue_full");
    else if (mapped.code === "rate_limited")
      noteRejection(request, (mapped.details as { async?: boolean } | undefined)?.async ? "async" : "requests");
    return errorResponse(mapped);
  };
}

export type App = ReturnType<typeof createApp>;
