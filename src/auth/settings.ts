/**
 * Authentication and rate-limit settings. Defaults follow the spec's Limits table; the serve command reads
 * overrides from the environment once (src/settings/env.ts), everything else receives a plain object.
 */
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
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  ratePerMinute: 600,
  ratePerHour: 18_000,
  asyncPerHour: 300,
  sessionLifetimeMs: 12 * 3600_000,
  sessionIdleMs: 30 * 60_000,
  loginAttemptsPer15Min: 20,
};
