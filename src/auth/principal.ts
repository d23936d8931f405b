/**
 * Who is calling. Resolved from the request headers on every request (no cache), so a revoked key or an ended
 * session is refused on the very next request.
 *
 * - `X-Admin-Key`: MUST carry the admin key (ADMIN_API_KEY).
 * - `X-API-Key`: the admin key or a client's API key.
 * - `X-Session-Token`: a session from POST /auth/login.
 * The admin principal acts for every tenant and holds every permission; it is not rate limited.
 */
import { DocprocError } from "../core/errors";
import { findActiveKeyById, findKeyByHash, type ActiveKey } from "../storage/auth/api-keys";
import type { Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { API_KEY_PREFIX, sameDigest, sha256Hex } from "./keys";
import { ALL_PERMISSIONS, type Permission } from "./permissions";
import { resolveSession } from "./sessions";
import type { AuthSettings } from "./settings";

export interface Principal {
  kind: "admin" | "api_key" | "session";
  /** The caller's tenant; null for the admin, who acts for every tenant. */
  tenantId: string | null;
  permissions: ReadonlySet<string>;
  clientId?: string;
  keyId?: string;
  userId?: string;
  username?: string;
  sessionId?: string;
  /** Rate-limit subject: `key:<key_id>` for API keys, `tenant:<tenant_id>` for session users, null for the admin. */
  rateSubject: string | null;
  limits: { perMinute: number; perHour: number; asyncPerHour: number };
}

export interface PrincipalContext {
  db: Db;
  clock: Clock;
  settings: AuthSettings;
  /** sha256 hex of ADMIN_API_KEY, computed once. */
  adminKeyHash: string;
}

const ADMIN_PERMISSIONS: ReadonlySet<string> = new Set<Permission>(ALL_PERMISSIONS);

function adminPrincipal(settings: AuthSettings): Principal {
  return {
    kind: "admin",
    tenantId: null,
    permissions: ADMIN_PERMISSIONS,
    rateSubject: null,
    limits: defaultLimits(settings),
  };
}

const defaultLimits = (s: AuthSettings) => ({
  perMinute: s.ratePerMinute,
  perHour: s.ratePerHour,
  asyncPerHour: s.asyncPerHour,
});

export function resolvePrincipal(ctx: PrincipalContext, header: (name: string) => string | null): Principal {
  const adminHeader = header("x-admin-key");
  if (adminHeader) {
    if (sameDigest(sha256Hex(adminHeader), ctx.adminKeyHash)) return adminPrincipal(ctx.settings);
    throw new DocprocError("unauthorized", "Invalid admin key");
  }
  const apiKey = header("x-api-key");
  if (apiKey) return principalOfKey(ctx, apiKey);
  const token = header("x-session-token");
  if (token) {
    const s = resolveSession(ctx.db, ctx.clock, ctx.settings, token);
    if (!s) throw new DocprocError("unauthorized", "Invalid or expired session: sign in again with POST /auth/login");
    return {
      kind: "session",
      tenantId: s.tenant_id,
      permissions: new Set(s.permissions),
      userId: s.user_id,
      username: s.username,
      sessionId: s.session_id,
      rateSubject: `tenant:${s.tenant_id}`,
      limits: defaultLimits(ctx.settings),
    };
  }
  throw new DocprocError(
    "unauthorized",
    "Missing credentials: send an API key in the X-API-Key header or a session token in X-Session-Token",
  );
}

function principalOfKey(ctx: PrincipalContext, key: string): Principal {
  const hash = sha256Hex(key);
  if (sameDigest(hash, ctx.adminKeyHash)) return adminPrincipal(ctx.settings);
  const found = key.startsWith(API_KEY_PREFIX) ? findKeyByHash(ctx.db, hash) : null;
  // The index lookup already matched the digest; the constant-time compare guards against any lookup quirk.
  if (!found || !sameDigest(found.key_hash, hash)) throw new DocprocError("unauthorized", "Invalid API key");
  return principalOfActiveKey(found, ctx.settings);
}

/** The principal of a key that is still active (null once revoked or its client deleted), by key id. */
export function principalOfKeyId(db: Db, settings: AuthSettings, keyId: string): Principal | null {
  const found = findActiveKeyById(db, keyId);
  return found ? principalOfActiveKey(found, settings) : null;
}

function principalOfActiveKey(found: ActiveKey, settings: AuthSettings): Principal {
  const d = defaultLimits(settings);
  return {
    kind: "api_key",
    tenantId: found.tenant_id,
    permissions: new Set(found.permissions),
    clientId: found.client_id,
    keyId: found.key_id,
    rateSubject: `key:${found.key_id}`,
    limits: {
      perMinute: found.rate_limit_per_minute ?? d.perMinute,
      perHour: found.rate_limit_per_hour ?? d.perHour,
      asyncPerHour: found.async_limit_per_hour ?? d.asyncPerHour,
    },
  };
}

/** What GET /auth/me shows. */
export function describePrincipal(p: Principal) {
  return {
    kind: p.kind,
    tenant_id: p.tenantId,
    permissions: [...p.permissions],
    client_id: p.clientId ?? null,
    key_id: p.keyId ?? null,
    user_id: p.userId ?? null,
    username: p.username ?? null,
    rate_limits: p.rateSubject
      ? { per_minute: p.limits.perMinute, per_hour: p.limits.perHour, async_per_hour: p.limits.asyncPerHour }
      : null,
  };
}
