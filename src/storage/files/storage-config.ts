/**
 * Which blob store a process uses (docs/storage.md). `DOCPROC_STORAGE_URL` unset: the data directory, as always;
 * `s3://bucket/prefix`: an S3-compatible bucket, with endpoint, region and credentials from the usual AWS
 * variables (parsed in src/settings/env.ts; nothing here reads the environment).
 *
 * A config is plain data: it crosses to the pipeline thread, which opens its own store to write export files.
 */
import path from "node:path";
import { DocprocError } from "../../core/errors";
import { fsBlobStore, type BlobStore, type StorageConfig } from "./blobs";
import { s3BlobStore } from "./s3-blobs";

export type { StorageConfig } from "./blobs";

/** The S3 settings of the environment (src/settings/env.ts fills it). */
export interface S3Env {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  virtualHostedStyle?: boolean;
}

/** S3 bucket names: 3–63 of a-z 0-9 . - (the rules every S3-compatible server accepts). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://bucket[/prefix]`; throws `invalid_settings` saying what is wrong. */
export function parseStorageUrl(url: string, s3: S3Env = {}): StorageConfig & { kind: "s3" } {
  const m = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/.exec(url);
  if (!m)
    throw new DocprocError(
      "invalid_settings",
      `must be s3://bucket/prefix (unset: the data directory), got ${JSON.stringify(url)}`,
    );
  const bucket = m[1]!;
  if (!BUCKET.test(bucket))
    throw new DocprocError(
      "invalid_settings",
      `bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3-63 of a-z 0-9 . -)`,
    );
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((p) => p === "." || p === "..") || prefix.includes("//")) {
    throw new DocprocError("invalid_settings", `prefix ${JSON.stringify(prefix)} has an empty, . or .. segment`);
  }
  return {
    kind: "s3",
    bucket,
    prefix,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    sessionToken: s3.sessionToken,
    // AWS (no endpoint given) wants the bucket in the host name; servers at an endpoint usually take it in the path.
    virtualHostedStyle: s3.virtualHostedStyle ?? !s3.endpoint,
  };
}

/** The store of a data directory: `storage` when configured, else `<dataDir>/blobs` and `<dataDir>/…`. */
export function storageConfigOf(dataDir: string, storage?: StorageConfig | null): StorageConfig {
  if (storage) return storage;
  const root = path.resolve(dataDir);
  return { kind: "fs", blobRoot: path.join(root, "blobs"), filesRoot: root };
}

export function openBlobStore(config: StorageConfig): BlobStore {
  return config.kind === "fs" ? fsBlobStore(config.blobRoot, config.filesRoot) : s3BlobStore(config);
}

/** Where the store is, for logs and start-up lines (never the credentials). */
export function describeStorage(config: StorageConfig): string {
  if (config.kind === "fs") return config.filesRoot;
  return `s3://${config.bucket}${config.prefix ? `/${config.prefix}` : ""}${config.endpoint ? ` at ${config.endpoint}` : ""}`;
}
