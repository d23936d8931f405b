/**
 * The mail connector's environment: DOCPROC_SECRET_KEY (seals IMAP passwords at rest), DOCPROC_MAIL_LEASE_SECONDS
 * (how long a claim on a message holds before another process may take it over; default 120) and
 * DOCPROC_MAIL_MAX_ATTEMPTS (failed imports of one message before it is left alone; default 3).
 * Read once by the command that runs connectors; everything below receives plain values.
 */
import { DocprocError } from "../core/errors";
import { parseSecretKey, type SecretKey } from "../storage/secret-box";

export interface MailEnv {
  secretKey: SecretKey | null;
  leaseMs: number;
  maxAttempts: number;
}

export function mailEnvFrom(env: Record<string, string | undefined> = process.env): MailEnv {
  const problems: string[] = [];
  const num = (name: string, fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      problems.push(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
      return fallback;
    }
    return n;
  };
  let secretKey: SecretKey | null = null;
  try {
    secretKey = env.DOCPROC_SECRET_KEY ? parseSecretKey(env.DOCPROC_SECRET_KEY) : null;
  } catch (err) {
    problems.push((err as Error).message);
  }
  const leaseMs = num("DOCPROC_MAIL_LEASE_SECONDS", 120, 1) * 1000;
  const maxAttempts = num("DOCPROC_MAIL_MAX_ATTEMPTS", 3, 1);
  if (problems.length) throw new DocprocError("invalid_settings", problems.join("; "));
  return { secretKey, leaseMs, maxAttempts };
}
