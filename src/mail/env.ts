/**
 * What the mail connectors take from the environment (parsed in src/settings/env.ts): DOCPROC_SECRET_KEY seals
 * IMAP passwords at rest, DOCPROC_MAIL_LEASE_SECONDS is how long a claim on a message holds before another process
 * may take it over, DOCPROC_MAIL_MAX_ATTEMPTS how often a failing message is retried before it is left alone.
 */
import type { SecretKey } from "../storage/auth/secret-box";

export interface MailEnv {
  secretKey: SecretKey | null;
  leaseMs: number;
  maxAttempts: number;
}

export const DEFAULT_MAIL_LEASE_SECONDS = 120;
export const DEFAULT_MAIL_MAX_ATTEMPTS = 3;
