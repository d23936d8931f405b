/**
 * Sessions for users who sign in with a password. A session ends at the first of: its absolute lifetime
 * (settings.sessionLifetimeMs from sign-in), its idle timeout (settings.sessionIdleMs without a request), logout,
 * or the user being disabled. Tokens are stored as SHA-256 digests only.
 *
 * The last-seen time is written at most once per TOUCH interval (a tenth of the idle timeout, at most a minute),
 * so authentication stays read-only on most requests; the idle timeout is therefore exact to within that interval.
 */
import { DocprocError } from "../core/errors";
import type { Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import {
  endSession,
  findLiveSession,
  insertSession,
  purgeSessions,
  touchSession,
  type LiveSession,
} from "../storage/auth/sessions";
import { findUserForLogin } from "../storage/auth/users";
import { getTenant } from "../storage/auth/tenants";
import { newId, newSessionToken, sha256Hex, SESSION_TOKEN_PREFIX } from "./keys";
import type { RateLimiter } from "./rate-limit";
import type { AuthSettings } from "./settings";
import { DEFAULT_TENANT } from "../storage/auth/tenants";

export interface LoginInput {
  tenant_id?: string;
  username: string;
  password: string;
}

export interface LoginResult {
  session_token: string;
  session_id: string;
  expires_at: string;
  idle_timeout_seconds: number;
  user: { user_id: string; tenant_id: string; username: string; permissions: string[] };
}

const touchIntervalMs = (s: AuthSettings) => Math.min(60_000, Math.floor(s.sessionIdleMs / 10));

let dummyHash: Promise<string> | undefined;

/** Verifies the password (argon2id) and opens a session. Unknown users cost the same time as wrong passwords. */
export async function login(
  db: Db,
  clock: Clock,
  settings: AuthSettings,
  limiter: RateLimiter,
  input: LoginInput,
): Promise<LoginResult> {
  const tenantId = input.tenant_id || DEFAULT_TENANT;
  const attempt = limiter.hit(`login:${tenantId}/${input.username}`, [
    { name: "login", limit: settings.loginAttemptsPer15Min, lengthMs: 15 * 60_000 },
  ]);
  if (!attempt.allowed) {
    throw new DocprocError(
      "rate_limited",
      `Too many sign-in attempts. Try again in ${attempt.retryAfterSeconds} seconds.`,
      { details: { decision: attempt } },
    );
  }
  const user = getTenant(db, tenantId) ? findUserForLogin(db, tenantId, input.username) : null;
  dummyHash ??= Bun.password.hash("docproc-dummy-password", { algorithm: "argon2id" });
  const ok = await Bun.password.verify(input.password, user?.password_hash ?? (await dummyHash));
  if (!user || !ok || user.disabled_at) throw new DocprocError("unauthorized", "Invalid user name or password");
  const now = clock.now();
  purgeSessions(db, now - 24 * 3600_000); // housekeeping: ended or expired for a day
  const token = newSessionToken();
  const sessionId = newId("ses_");
  const expiresAt = now + settings.sessionLifetimeMs;
  insertSession(db, {
    token_hash: token.hash,
    session_id: sessionId,
    user_id: user.user_id,
    tenant_id: user.tenant_id,
    created_at: now,
    expires_at: expiresAt,
    last_seen_at: now,
  });
  return {
    session_token: token.value,
    session_id: sessionId,
    expires_at: new Date(expiresAt).toISOString(),
    idle_timeout_seconds: Math.floor(settings.sessionIdleMs / 1000),
    user: { user_id: user.user_id, tenant_id: user.tenant_id, username: user.username, permissions: user.permissions },
  };
}

/** The live session of a token, or null (unknown, ended, expired or idle too long). Refreshes the idle timer. */
export function resolveSession(db: Db, clock: Clock, settings: AuthSettings, token: string): LiveSession | null {
  if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
  const s = findLiveSession(db, sha256Hex(token));
  if (!s) return null;
  const now = clock.now();
  if (now >= s.expires_at || now - s.last_seen_at >= settings.sessionIdleMs) return null;
  if (now - s.last_seen_at >= touchIntervalMs(settings)) touchSession(db, s.session_id, now);
  return s;
}

export function logout(db: Db, clock: Clock, sessionId: string): boolean {
  return endSession(db, sessionId, clock.now());
}
