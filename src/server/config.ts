/**
 * Server settings. The command reads them from the environment once (src/settings/env.ts); everything below receives
 * a plain object.
 */
import type { AuthSettings } from "../auth/settings";
import type { TrustProxy } from "./proxy";

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
  /** Largest `documentText` of a one-step request (UTF-8 bytes): 413 above it. */
  maxDocumentTextBytes: number;
  /** Largest `ocrData` of a one-step request (bytes of its JSON): 413 above it. */
  maxOcrDataBytes: number;
  /** Public uploads (capture submits) read at once; more answer 429 with Retry-After. Optional: default below. */
  maxPublicUploads?: number;
  /**
   * Largest capture submit whose token comes after the files (the deprecated form, read before its token can be
   * checked; docs/api-stability.md); default 20 MiB, never above maxBodyBytes.
   */
  maxCaptureFilesFirstBytes?: number;
  /** Rate limits and session lifetimes (src/auth/settings.ts); the defaults when left out. */
  auth?: AuthSettings;
  /** Bearer token that may read GET /metrics (besides the admin key); DOCPROC_METRICS_TOKEN. */
  metricsToken?: string | null;
  /** Honour X-Forwarded-Proto/Host/Prefix (src/server/proxy.ts); DOCPROC_TRUST_PROXY, off by default. */
  trustProxy?: TrustProxy;
}

export const DEFAULT_CONFIG: Omit<ServerConfig, "adminApiKey"> & { maxPublicUploads: number } = {
  maxBodyBytes: 100 * 1024 * 1024,
  maxFileBytes: 50 * 1024 * 1024,
  maxFilesPerUpload: 100,
  maxQueueDepth: 1000,
  maxLongPollSeconds: 120,
  longPollRecheckMs: 1000,
  maxDocumentTextBytes: 1024 * 1024,
  maxOcrDataBytes: 20 * 1024 * 1024,
  maxPublicUploads: 4,
};
