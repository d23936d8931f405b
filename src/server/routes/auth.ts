/**
 * Sessions over HTTP: POST /auth/login (public), POST /auth/logout and GET /auth/me (any credentials).
 * The session token is returned in the body, once; send it back in X-Session-Token.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { DocprocError } from "../../core/errors";
import type { Guard } from "../../auth/guard";
import { describePrincipal } from "../../auth/principal";
import { login, logout } from "../../auth/sessions";
import { principalOf } from "../auth";
import type { ServerDeps } from "../deps";
import { rateLimitResponse } from "../rate-limit-response";
import { documentRoutes, type RouteDoc } from "../route-doc";
import { ErrorSchema } from "../schemas";
import { parseInput, readJson } from "../validation";

const LoginBody = z.object({
  tenant_id: z.string().min(1).max(64).optional(),
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});

export function authRoutes(deps: ServerDeps, guard: Guard) {
  return new Elysia({ name: "auth" })
    .post(
      "/auth/login",
      async ({ request }) => {
        const input = parseInput(LoginBody, await readJson(request));
        try {
          return await login(deps.db, deps.clock, guard.settings, guard.limiter, input);
        } catch (err) {
          // The sign-in throttle's 429 carries Retry-After and X-RateLimit-* like every other limit.
          const limited = rateLimitResponse(err);
          if (limited) return limited;
          throw err;
        }
      },
      { parse: "none" },
    )
    .post("/auth/logout", ({ request }) => {
      const p = principalOf(request);
      if (p.kind !== "session" || !p.sessionId)
        throw new DocprocError("invalid_input", "Logout ends a session: send its token in X-Session-Token");
      return { session_id: p.sessionId, ended: logout(deps.db, deps.clock, p.sessionId) };
    })
    .get("/auth/me", ({ request }) => describePrincipal(principalOf(request)));
}

const err = (description: string) => ({ description, schema: ErrorSchema });
const Obj = z.record(z.string(), z.unknown());

/** OpenAPI entries for the routes above (src/server/openapi.ts lists them). */
export const AUTH_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: "/auth/login",
    summary: "Sign in; returns session_token (send it in X-Session-Token), expires_at and the user",
    tag: "Auth",
    public: true,
    body: LoginBody,
    responses: {
      200: { description: "Session", schema: Obj },
      400: err("Invalid body"),
      401: err("Invalid user name or password"),
      429: err("Too many sign-in attempts"),
    },
  },
  {
    method: "post",
    path: "/auth/logout",
    summary: "End the session of X-Session-Token",
    tag: "Auth",
    responses: {
      200: { description: "Ended", schema: Obj },
      400: err("Not a session"),
      401: err("Missing or invalid credentials"),
    },
  },
  {
    method: "get",
    path: "/auth/me",
    summary: "Who the credentials belong to: kind, tenant, permissions, rate limits",
    tag: "Auth",
    responses: { 200: { description: "Principal", schema: Obj }, 401: err("Missing or invalid credentials") },
  },
];
documentRoutes(AUTH_ROUTE_DOCS);
