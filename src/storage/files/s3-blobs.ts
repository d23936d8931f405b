/**
 * The blob store in an S3-compatible bucket, through the runtime's own client (`Bun.S3Client`: no SDK to ship;
 * docs/storage.md has the measured reason). Keys: `<prefix>/blobs/sha256/ab/cdef…` and `<prefix>/<key>`.
 *
 * Atomicity comes from S3 itself: a PUT (or a multipart upload, which Bun uses for large bodies) makes the object
 * visible only once whole. Failures other than a missing key are `internal` and retryable (the queue tries again).
 */
import { DocprocError } from "../../core/errors";
import {
  blobKey,
  checkKey,
  sha256OfBytes,
  toBytes,
  type BlobStore,
  type StorageConfig,
  type StoredObject,
} from "./blobs";

type S3Config = StorageConfig & { kind: "s3" };

/** A missing key, and only that: a missing bucket (NoSuchBucket) or refused credentials are errors. */
const isMissing = (err: unknown) => (err as { code?: string } | null)?.code === "NoSuchKey";

function storageError(what: string, err: unknown): DocprocError {
  const e = err as { code?: string; message?: string } | null;
  return new DocprocError(
    "internal",
    `storage: ${what} failed: ${e?.code ? `${e.code}: ` : ""}${e?.message ?? String(err)}`,
    { retryable: true, cause: err },
  );
}

/** The bucket's client, its key prefix, and the three reads and writes the store is made of, errors translated. */
function s3Objects(config: S3Config) {
  const client = new Bun.S3Client({
    bucket: config.bucket,
    endpoint: config.endpoint,
    region: config.region,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    sessionToken: config.sessionToken,
    virtualHostedStyle: config.virtualHostedStyle,
  });
  const full = (key: string) => (config.prefix ? `${config.prefix}/${key}` : key);

  const exists = async (key: string) => {
    try {
      return await client.exists(full(key));
    } catch (err) {
      throw storageError(`checking ${key}`, err);
    }
  };
  const readKey = async (key: string): Promise<Uint8Array | null> => {
    try {
      return new Uint8Array(await client.file(full(key)).arrayBuffer());
    } catch (err) {
      if (isMissing(err)) return null;
      throw storageError(`reading ${key}`, err);
    }
  };
  const writeKey = async (key: string, data: Uint8Array) => {
    try {
      await client.write(full(key), data);
    } catch (err) {
      throw storageError(`writing ${key}`, err);
    }
  };
  return { client, full, exists, readKey, writeKey };
}

export function s3BlobStore(config: S3Config): BlobStore {
  const { client, full, exists, readKey, writeKey } = s3Objects(config);

  return {
    config,
    async check() {
      // A list request (not a HEAD, whose 404 has no body) tells a missing bucket and refused credentials apart.
      // Its prefix holds nothing, so the answer is one short page (s3rver fails on truncated list pages).
      try {
        await client.list({ prefix: full("check/"), maxKeys: 1 });
      } catch (err) {
        throw storageError(`reaching bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ""}`, err);
      }
    },
    async *list(prefix) {
      const p = `${full(checkKey(prefix))}/`;
      const strip = config.prefix ? config.prefix.length + 1 : 0;
      let token: string | undefined;
      do {
        const page = await client
          .list({ prefix: p, ...(token ? { continuationToken: token } : {}) })
          .catch((err) => Promise.reject(storageError(`listing ${prefix}/`, err)));
        for (const o of page.contents ?? []) yield o.key.slice(strip);
        token = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (token);
    },
    has: (hash) => exists(blobKey(hash)),
    async put(data) {
      const hash = sha256OfBytes(data);
      if (!(await exists(blobKey(hash)))) await writeKey(blobKey(hash), data);
      return hash;
    },
    async get(hash) {
      const data = await readKey(blobKey(hash));
      if (!data) throw new DocprocError("not_found", `blob ${hash} is missing`);
      return data;
    },
    write: async (key, data) => writeKey(checkKey(key), toBytes(data)),
    read: async (key) => readKey(checkKey(key)),
    async open(key): Promise<StoredObject | null> {
      const k = full(checkKey(key));
      try {
        const { size } = await client.stat(k);
        return {
          size,
          stream: () => client.file(k).stream(),
          bytes: async () => (await readKey(key)) ?? new Uint8Array(),
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw storageError(`opening ${key}`, err);
      }
    },
    async removeAll(prefix) {
      const p = `${full(checkKey(prefix))}/`;
      try {
        let token: string | undefined;
        do {
          const page = await client.list({ prefix: p, ...(token ? { continuationToken: token } : {}) });
          // One by one: a transaction has a handful of export files, and s3rver fails parallel deletes.
          for (const o of page.contents ?? []) await client.delete(o.key);
          token = page.isTruncated ? page.nextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        throw storageError(`removing ${prefix}/`, err);
      }
    },
  };
}
