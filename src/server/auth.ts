/**
 * Authentication over HTTP: runs the access guard of src/auth (API keys, the admin key, sessions, permissions,
 * tenant scope, rate limits; docs/auth.md) for every request that is not public, and remembers the caller.
 * Public (no key): GET /health, /docs, /api-docs and its assets, POST /auth/login, and the phone capture page
 * (/capture, /capture/session, /capture/submit: the capture token in the body is the credential; docs/capture.md),
 * and the review page's HTML (/review, /review/{id}: its data calls carry a session; docs/review.md).
 */
import { DocprocError } from "../core/errors";
import type { Guard } from "../auth/guard";
import type { Principal } from "../auth/principal";
import { rateLimitHeaders } from "./rate-limit-response";

// `/` is the first-run page; `/metrics` checks its own credential (routes/metrics.ts: admin key or metrics token).
const PUBLIC = [
  /^\/$/,
  /^\/metrics\/?$/,
  /^\/health\/?$/,
  /^\/docs(\/.*)?$/,
  /^\/api-docs(\/.*)?$/,
  /^\/capture(\/session|\/submit)?\/?$/,
  /^\/review(\/[^/]+)?\/?$/,
];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC.some((re) => re.test(pathname));
}

const principals = new WeakMap<Request, Principal>();

/** Paths that need no credentials besides the public ones above: signing in. */
const isSignIn = (pathname: string) => /^\/auth\/login\/?$/.test(pathname);

/**
 * Runs the access guard for a request: 401/403/404/429 as DocprocError, otherwise remembers the principal for the
 * route (principalOf) and puts the X-RateLimit-* headers into `headers` (Elysia's `set.headers`).
 */
export function authorizeRequest(
  request: Request,
  pathname: string,
  guard: Guard,
  headers: Record<string, string | number>,
): void {
  if (isPublicPath(pathname) || isSignIn(pathname)) return;
  // Headers go out as soon as the request is counted, so a 403 or 404 that used up budget reports it too.
  const access = guard.check({ method: request.method, pathname, header: (n) => request.headers.get(n) }, (rate) =>
    Object.assign(headers, rateLimitHeaders(rate.window)),
  );
  principals.set(request, access.principal);
}

/** The authenticated caller of a request; throws `unauthorized` for a request that went through no guard. */
export function principalOf(request: Request): Principal {
  const p = principals.get(request);
  if (!p) throw new DocprocError("unauthorized", "Not authenticated");
  return p;
}

/** Who made a request, for the access log: kind and ids only (null before authentication or on public paths). */
export function callerOf(request: Request): { kind: string; keyId?: string; tenantId: string | null } | null {
  const p = principals.get(request);
  return p ? { kind: p.kind, keyId: p.keyId, tenantId: p.tenantId } : null;
}

/** The tenant a request is confined to, or null when it may see every tenant (the admin key). */
export function tenantScopeOf(request: Request): string | null {
  return principalOf(request).tenantId;
}

/** Confines GET /transactions to the caller's tenant; asking for another tenant's list gives an empty one. */
export function scopeListQuery<Q extends { tenant_id?: string }>(query: Q, scope: string | null): Q {
  if (scope === null) return query;
  // NUL never occurs in a tenant id, so a foreign tenant_id filter matches nothing rather than widening the scope.
  return { ...query, tenant_id: query.tenant_id && query.tenant_id !== scope ? `${scope}\u0000` : scope };
}
