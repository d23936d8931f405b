/**
 * Webhook payloads (spec "Events"). Both payloads MUST carry tenant_id, project_id, transaction_id,
 * transaction_name (string or null) and occurred_at (ISO 8601 UTC), and MUST NOT carry credentials: downloads need
 * the receiver's own API key (X-API-Key).
 */
import { DocprocError } from "../errors.ts";

/** The spec's export manifest, as much of it as the payload needs (spec "Export manifest"). */
export interface ExportManifestLike {
  transaction_id: string;
  profiles: Record<string, ManifestProfile>;
  total_files: number;
  total_size_bytes: number;
}

export interface ManifestProfile {
  profile_id: string;
  profile_name: string;
  output_format: string;
  scope_mode?: string;
  files: Array<{ filename: string; path?: string; size_bytes: number; document_ids?: string[]; created_at?: string }>;
  error?: string;
  status?: string;
}

export interface TransactionRef {
  tenant_id: string;
  project_id: string;
  transaction_id: string;
  /** UI display name; null when the transaction has none. */
  transaction_name?: string | null;
}

export interface ExportFileLink {
  profile_id: string;
  profile_name: string;
  output_format: string;
  filename: string;
  size_bytes: number;
  download_url: string;
}

interface PayloadBase {
  event: string;
  tenant_id: string;
  project_id: string;
  transaction_id: string;
  transaction_name: string | null;
  occurred_at: string;
}

export interface ReachedPayload extends PayloadBase {
  exports: { manifest_url: string; total_files: number; total_size_bytes: number; files: ExportFileLink[] };
}

export interface FailedPayload extends PayloadBase {
  event: "transaction.failed";
  error: string;
  exports: Record<string, never>;
}

export type WebhookPayload = ReachedPayload | FailedPayload;

export const REACHED_EVENT = "transaction.step_reached";
export const FAILED_EVENT = "transaction.failed";
const MAX_ERROR_LENGTH = 2000;

/**
 * The base for absolute links: the activity's api_base_url, else the deployment's public URL. MUST throw
 * `invalid_settings` when neither is known (a relative link would be useless to a receiver).
 */
export function linkBase(apiBaseUrl: string | null, publicBaseUrl: string | null | undefined): string {
  const base = apiBaseUrl ?? publicBaseUrl;
  if (!base) {
    throw new DocprocError(
      "invalid_settings",
      "notification needs api_base_url (or a configured public URL) to build download links",
      {
        stage: "notify",
      },
    );
  }
  return base.replace(/\/+$/, "");
}

/** `{base}/transactions/{id}/exports` */
export function manifestUrl(base: string, transactionId: string): string {
  return `${base}/transactions/${encodeURIComponent(transactionId)}/exports`;
}

/** `{base}/transactions/{id}/exports/download/{filename}`, each filename segment percent-encoded, `/` kept. */
export function downloadUrl(base: string, transactionId: string, filename: string): string {
  const encoded = filename.split("/").map(encodeURIComponent).join("/");
  return `${manifestUrl(base, transactionId)}/download/${encoded}`;
}

function basePayload(event: string, tx: TransactionRef, occurredAt: Date): PayloadBase {
  return {
    event,
    tenant_id: tx.tenant_id,
    project_id: tx.project_id,
    transaction_id: tx.transaction_id,
    transaction_name: tx.transaction_name ?? null,
    occurred_at: occurredAt.toISOString(),
  };
}

export interface ReachedInput {
  transaction: TransactionRef;
  manifest: ExportManifestLike;
  /** activity.event_name; null means `transaction.step_reached`. */
  eventName: string | null;
  /** activity.api_base_url */
  apiBaseUrl: string | null;
  /** The deployment's public URL (server config); used when api_base_url is null. */
  publicBaseUrl?: string | null;
  occurredAt: Date;
}

/** `transaction.step_reached` (or the event_name override) with absolute manifest and download links. */
export function buildReachedPayload(input: ReachedInput): ReachedPayload {
  const base = linkBase(input.apiBaseUrl, input.publicBaseUrl);
  const id = input.transaction.transaction_id;
  const files: ExportFileLink[] = [];
  for (const profile of Object.values(input.manifest.profiles)) {
    for (const file of profile.files) {
      files.push({
        profile_id: profile.profile_id,
        profile_name: profile.profile_name,
        output_format: profile.output_format,
        filename: file.filename,
        size_bytes: file.size_bytes,
        download_url: downloadUrl(base, id, file.filename),
      });
    }
  }
  return {
    ...basePayload(input.eventName ?? REACHED_EVENT, input.transaction, input.occurredAt),
    exports: {
      manifest_url: manifestUrl(base, id),
      total_files: input.manifest.total_files,
      total_size_bytes: input.manifest.total_size_bytes,
      files,
    },
  };
}

/** `transaction.failed`: carries `error`, and `exports` is an empty object. */
export function buildFailedPayload(input: {
  transaction: TransactionRef;
  error: string;
  occurredAt: Date;
}): FailedPayload {
  const error = input.error.length > MAX_ERROR_LENGTH ? `${input.error.slice(0, MAX_ERROR_LENGTH - 1)}…` : input.error;
  return { ...basePayload(FAILED_EVENT, input.transaction, input.occurredAt), event: FAILED_EVENT, error, exports: {} };
}
