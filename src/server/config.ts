/**
 * Server settings. Read from the environment once, in the command; everything below receives a plain object.
 */
import { randomBytes } from "node:crypto";
import { DocprocError } from "../core/errors";
import { authSettingsFromEnv, type AuthSettings } from "../auth/settings";

export interface ServerConfig {
  /** `X-API-Key` value that authorises everything (the spec's ADMIN_API_KEY). */
  adminApiKey: string;
  /** Largest request body accepted (bytes): 413 above it. */
  maxBodyBytes: number;
  /** Largest single uploaded or base64 file (bytes): 413 above it. */
  maxFileBytes: number;
  /** Most files in one upload or one-step request: 413 above it. */
  maxFilesPerUpload: number;
  /** Jobs waiting or running before submissions answer 429 queue_full. */
  maxQueueDepth: number;
  /** Longest long poll a client may ask for (seconds). */
  maxLongPollSeconds: number;
  /** How often long polls re-read statuses written by other processes (ms). */
  longPollRecheckMs: number;
  /** Rate limits and session lifetimes (src/auth/settings.ts); the defaults when left out. */
  auth?: AuthSettings;
}

export const DEFAULT_CONFIG: Omit<ServerConfig, "adminApiKey"> = {
  maxBodyBytes: 100 * 1024 * 1024,
  maxFileBytes: 50 * 1024 * 1024,
  maxFilesPerUpload: 100,
  maxQueueDepth: 1000,
  maxLongPollSeconds: 120,
  longPollRecheckMs: 1000,
};

function positive(env: Record<string, string | undefined>, name: string, fallback: number, scale = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return Math.floor(fallback * scale);
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new DocprocError("invalid_settings", `${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return Math.floor(n * scale);
}

/**
 * Builds the config from environment variables: ADMIN_API_KEY, DOCPROC_MAX_BODY_MB, DOCPROC_MAX_FILE_MB,
 * DOCPROC_MAX_FILES, DOCPROC_MAX_QUEUE_DEPTH, DOCPROC_MAX_LONG_POLL_SECONDS. Without ADMIN_API_KEY a random key is
 * generated (`generatedKey` is true so the caller can print it once).
 */
export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig & { generatedKey: boolean } {
  const MB = 1024 * 1024;
  const key = env.ADMIN_API_KEY?.trim();
  return {
    adminApiKey: key || randomBytes(24).toString("base64url"),
    generatedKey: !key,
    maxBodyBytes: positive(env, "DOCPROC_MAX_BODY_MB", DEFAULT_CONFIG.maxBodyBytes / MB, MB),
    maxFileBytes: positive(env, "DOCPROC_MAX_FILE_MB", DEFAULT_CONFIG.maxFileBytes / MB, MB),
    maxFilesPerUpload: positive(env, "DOCPROC_MAX_FILES", DEFAULT_CONFIG.maxFilesPerUpload),
    maxQueueDepth: positive(env, "DOCPROC_MAX_QUEUE_DEPTH", DEFAULT_CONFIG.maxQueueDepth),
    maxLongPollSeconds: positive(env, "DOCPROC_MAX_LONG_POLL_SECONDS", DEFAULT_CONFIG.maxLongPollSeconds),
    longPollRecheckMs: DEFAULT_CONFIG.longPollRecheckMs,
    auth: authSettingsFromEnv(env),
  };
}
