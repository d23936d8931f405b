/**
 * Everything `serve` and `worker` keep besides the database: originals and page images (content-addressed blobs),
 * export files and run state (named objects). The `BlobStore` interface is all callers see; the configuration
 * (storage-config.ts, `DOCPROC_STORAGE_URL`) chooses the data directory (this file) or S3 (s3-blobs.ts), so any
 * process on any host answers for any transaction.
 *
 * Contract for every implementation:
 * - MUST store every object whole and write atomically: a reader sees the old object, the new one, or none, never a
 *   truncated one under its final name (here: temp file + fsync + rename; S3: a PUT is atomic).
 * - `put` stores the same bytes once (the key is their sha256); a missing blob or object is `not_found` (get, open)
 *   or null (read).
 * - Keys of named objects are relative slash-separated paths (`exports/<transaction_id>/csv/a.csv`,
 *   `state/<transaction_id>.json`); one that could leave the store (`..`, absolute, NUL) is refused.
 *
 * Layout on disk, unchanged from before the interface: `<data>/blobs/sha256/ab/cdef…`, `<data>/<key>`.
 */
import { createHash, randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../../core/errors";

/** An object ready to be streamed (downloads): its size first, then its bytes. */
export interface StoredObject {
  size: number;
  stream(): ReadableStream<Uint8Array>;
  bytes(): Promise<Uint8Array>;
  /** A file on this host (the data directory): the HTTP server sends it as it is, length included. */
  localFile?: Blob;
}

/** Where blobs and files live: a folder, or an S3-compatible bucket (storage-config.ts reads it from settings). */
export type StorageConfig =
  | { kind: "fs"; blobRoot: string; filesRoot: string }
  | {
      kind: "s3";
      bucket: string;
      /** Key prefix without slashes at either end; "" for the bucket's root. */
      prefix: string;
      endpoint?: string;
      region?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      sessionToken?: string;
      /** Bucket in the host name (AWS) instead of the path (most S3-compatible servers). */
      virtualHostedStyle: boolean;
    };

export interface BlobStore {
  /** Stores the bytes; returns their sha256 hex digest. Storing the same bytes twice stores them once. */
  put(data: Uint8Array): Promise<string>;
  get(hash: string): Promise<Uint8Array>;
  /** The data directory's store only: the blob's file on this host (the queue reads a PDF from it as the CLI does). */
  pathOf?(hash: string): string;
  has(hash: string): Promise<boolean>;
  /** Writes (replaces) a named object atomically. */
  write(key: string, data: Uint8Array | string): Promise<void>;
  /** A named object's bytes; null when there is none. */
  read(key: string): Promise<Uint8Array | null>;
  /** A named object or blob (`blobKey(hash)`) to stream; null when there is none. */
  open(key: string): Promise<StoredObject | null>;
  /** Deletes every named object under `prefix/`. */
  removeAll(prefix: string): Promise<void>;
  /** Throws a clear error when the store cannot be used (start-up and the health check). */
  check(): Promise<void>;
  /** Every key under `prefix/` (`blobs`, `exports`, `state`), blobs as `blobKey(hash)`; for copying a store. */
  list(prefix: string): AsyncIterable<string>;
  /** How to open this store again (the pipeline thread writes export files through its own copy). */
  readonly config: StorageConfig;
}

const HASH = /^[0-9a-f]{64}$/;
const BLOB_KEY = /^blobs\/sha256\/[0-9a-f]{2}\/[0-9a-f]{62}$/;

export function sha256OfBytes(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The key of a content-addressed blob: `blobs/sha256/ab/cdef…`. */
export function blobKey(hash: string): string {
  if (!HASH.test(hash)) throw new DocprocError("invalid_input", `not a sha256 digest: ${hash}`);
  return `blobs/sha256/${hash.slice(0, 2)}/${hash.slice(2)}`;
}

/** Checks a named object's key: relative, slash-separated, no `.`/`..`/empty segment, no NUL or backslash. */
export function checkKey(key: string): string {
  const parts = key.split("/");
  if (
    !key ||
    key.includes("\0") ||
    key.includes("\\") ||
    /^[A-Za-z]:/.test(key) ||
    parts.some((p) => p === "" || p === "." || p === "..")
  ) {
    throw new DocprocError("invalid_input", `refusing storage key ${JSON.stringify(key)}`);
  }
  return key;
}

export const toBytes = (data: Uint8Array | string): Uint8Array =>
  typeof data === "string" ? new TextEncoder().encode(data) : data;

/**
 * The data directory's store. `blobRoot` is `<data>/blobs`; named objects live under `filesRoot` (default: the
 * folder that holds `blobRoot`, i.e. the data directory).
 */
export function fsBlobStore(
  blobRoot: string,
  filesRoot = path.dirname(path.resolve(blobRoot)),
): BlobStore & { pathOf(hash: string): string } {
  const root = path.resolve(blobRoot);
  const pathOf = (hash: string) => path.join(root, blobKey(hash).slice("blobs/".length));
  const fileOf = (key: string) => path.join(filesRoot, ...checkKey(key).split("/")); // stack-safe: a key's few segments
  return {
    config: { kind: "fs", blobRoot: root, filesRoot: path.resolve(filesRoot) },
    pathOf,
    has: (hash) => exists(pathOf(hash)),
    async put(data) {
      const hash = sha256OfBytes(data);
      if (!(await exists(pathOf(hash)))) await writeAtomic(root, pathOf(hash), data);
      return hash;
    },
    async get(hash) {
      const file = pathOf(hash);
      try {
        return new Uint8Array(await readFile(file));
      } catch (err) {
        throw new DocprocError("not_found", `blob ${hash} is missing`, { cause: err });
      }
    },
    write: async (key, data) => writeAtomic(root, fileOf(key), toBytes(data)),
    async read(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    open: async (key) => openFile(BLOB_KEY.test(key) ? path.join(root, key.slice("blobs/".length)) : fileOf(key)),
    removeAll: async (prefix) => rm(fileOf(prefix), { recursive: true, force: true }),
    async check() {
      await mkdir(filesRoot, { recursive: true });
      await access(filesRoot, constants.W_OK);
    },
    async *list(prefix) {
      // Blobs live under blobRoot (which need not be inside filesRoot); its tmp/ holds no finished object.
      const top = prefix === "blobs" ? path.join(root, "sha256") : fileOf(prefix);
      const base = prefix === "blobs" ? "blobs/sha256" : prefix;
      let entries: string[];
      try {
        entries = (await readdir(top, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => path.relative(top, path.join(e.parentPath, e.name)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
        throw err;
      }
      for (const rel of entries.sort()) yield `${base}/${rel.split(path.sep).join("/")}`;
    },
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** temp file in `<root>/tmp` (same file system), fsync, rename over the final name. */
async function writeAtomic(root: string, final: string, data: Uint8Array): Promise<void> {
  const tmpDir = path.join(root, "tmp");
  await mkdir(tmpDir, { recursive: true });
  await mkdir(path.dirname(final), { recursive: true });
  const tmp = path.join(tmpDir, `${path.basename(final)}.${randomUUID()}`);
  const fh = await open(tmp, "w");
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, final);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function openFile(file: string): Promise<StoredObject | null> {
  try {
    const s = await stat(file);
    if (!s.isFile()) return null;
    const local = Bun.file(file);
    return { size: s.size, stream: () => local.stream(), bytes: () => local.bytes(), localFile: local };
  } catch {
    return null;
  }
}
