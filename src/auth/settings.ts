/**
 * Authentication and rate-limit settings. Defaults follow the spec's Limits table; the serve command reads
 * overrides from the environment once (authSettingsFromEnv), everything else receives a plain object.
 */
import { DocprocError } from "../core/errors";

export interface AuthSettings {
  /** Requests per minute per API key (per tenant for session users). */
  ratePerMinute: number;
  /** Requests per hour per API key (per tenant for session users). */
  ratePerHour: number;
  /** Task submissions per hour per API key (per tenant for session users) on the async endpoints. */
  asyncPerHour: number;
  /** Absolute session lifetime from sign-in (ms). */
  sessionLifetimeMs: number;
  /** A session unused this long ends (ms). */
  sessionIdleMs: number;
  /** Sign-in attempts per user name per 15 minutes before 429. */
  loginAttemptsPer15Min: number;
  /** Longest time changed rate-limit counters stay only in memory before they are written to SQLite (ms). */
  counterFlushMs: number;
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  ratePerMinute: 600,
  ratePerHour: 18_000,
  asyncPerHour: 300,
  sessionLifetimeMs: 12 * 3600_000,
  sessionIdleMs: 30 * 60_000,
  loginAttemptsPer15Min: 20,
  counterFlushMs: 250,
};

function positive(env: Record<string, string | undefined>, name: string, fallback: number, scale: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    problems.push(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
    return fallback;
  }
  return Math.floor(n * scale);
}

/**
 * DOCPROC_RATE_LIMIT_PER_MINUTE, DOCPROC_RATE_LIMIT_PER_HOUR, DOCPROC_ASYNC_LIMIT_PER_HOUR, DOCPROC_SESSION_HOURS,
 * DOCPROC_SESSION_IDLE_MINUTES. Every bad value is reported at once.
 */
export function authSettingsFromEnv(env: Record<string, string | undefined> = process.env): AuthSettings {
  const d = DEFAULT_AUTH_SETTINGS;
  const problems: string[] = [];
  const s: AuthSettings = {
    ...d,
    ratePerMinute: positive(env, "DOCPROC_RATE_LIMIT_PER_MINUTE", d.ratePerMinute, 1, problems),
    ratePerHour: positive(env, "DOCPROC_RATE_LIMIT_PER_HOUR", d.ratePerHour, 1, problems),
    asyncPerHour: positive(env, "DOCPROC_ASYNC_LIMIT_PER_HOUR", d.asyncPerHour, 1, problems),
    sessionLifetimeMs: positive(env, "DOCPROC_SESSION_HOURS", d.sessionLifetimeMs, 3600_000, problems),
    sessionIdleMs: positive(env, "DOCPROC_SESSION_IDLE_MINUTES", d.sessionIdleMs, 60_000, problems),
  };
  if (problems.length) throw new DocprocError("invalid_settings", problems.join("; "));
  return s;
}
