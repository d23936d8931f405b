/**
 * The HTTP app: one Elysia instance per resource, composed here with the cross-cutting parts (auth, body limit,
 * error mapping). Errors become `{ "detail": string }` once, in errors.ts.
 */
import { Elysia } from "elysia";
import { DocprocError } from "../core/errors";
import { createGuard } from "../auth/guard";
import { DEFAULT_AUTH_SETTINGS } from "../auth/settings";
import { authorizeRequest } from "./auth";
import type { ServerDeps } from "./deps";
import { errorResponse, fromFrameworkError } from "./errors";
import { createLongPoll, type LongPoll } from "./long-poll";
import { docsRoutes } from "./routes/docs";
import { healthRoutes } from "./routes/health";
import { adminRoutes } from "./routes/admin";
import { deliveryRoutes } from "./routes/deliveries";
import { authRoutes } from "./routes/auth";
import { captureRoutes } from "./routes/capture";
import { rateLimitResponse } from "./rate-limit";
import { projectRoutes } from "./routes/projects";
import { resultRoutes } from "./routes/results";
import { statusRoutes } from "./routes/status";
import { transactionRoutes } from "./routes/transactions";

function checkBodySize(request: Request, maxBodyBytes: number): void {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBodyBytes) {
    throw new DocprocError("too_large", `Request body of ${length} bytes is larger than the ${maxBodyBytes}-byte limit`);
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

export function createApp(deps: ServerDeps, longPoll: LongPoll = createLongPoll(deps.db, deps.notifier, deps.config.longPollRecheckMs)) {
  const guard = createGuard({ db: deps.db, clock: deps.clock, adminApiKey: deps.config.adminApiKey, settings: deps.config.auth ?? DEFAULT_AUTH_SETTINGS });
  return new Elysia()
    .onRequest(({ request, set }) => {
      try {
        const pathname = pathnameOf(request.url);
        authorizeRequest(request, pathname, guard, set.headers as Record<string, string>);
        checkBodySize(request, deps.config.maxBodyBytes);
      } catch (err) {
        return rateLimitResponse(err) ?? errorResponse(err);
      }
    })
    .onStop(() => guard.close())
    .onError(({ code, error }) => {
      const mapped = fromFrameworkError(code, error);
      if (!(mapped instanceof DocprocError)) console.error("unhandled error:", error);
      return errorResponse(mapped);
    })
    .use(healthRoutes(deps))
    .use(docsRoutes())
    .use(projectRoutes(deps))
    .use(transactionRoutes(deps))
    .use(statusRoutes(deps, longPoll))
    .use(resultRoutes(deps))
    .use(deliveryRoutes(deps))
    .use(captureRoutes(deps))
    .use(adminRoutes(deps, guard))
    .use(authRoutes(deps, guard));
}

export type App = ReturnType<typeof createApp>;
