/**
 * Content-addressed blob store. The `BlobStore` interface is all callers see, so an S3 implementation can replace
 * the filesystem one. MUST store every original whole; MUST write atomically (temp file + fsync + rename) so a crash
 * never leaves a truncated blob under its final name.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../core/errors";

export interface BlobStore {
  /** Stores the bytes; returns their sha256 hex digest. Storing the same bytes twice stores them once. */
  put(data: Uint8Array): Promise<string>;
  get(hash: string): Promise<Uint8Array>;
  has(hash: string): Promise<boolean>;
}

const HASH = /^[0-9a-f]{64}$/;

export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** `<root>/sha256/ab/cdef…` */
export function fsBlobStore(root: string): BlobStore & { pathOf(hash: string): string } {
  const pathOf = (hash: string) => {
    if (!HASH.test(hash)) throw new DocprocError("invalid_input", `not a sha256 digest: ${hash}`);
    return path.join(root, "sha256", hash.slice(0, 2), hash.slice(2));
  };
  const has = async (hash: string) => {
    try {
      await stat(pathOf(hash));
      return true;
    } catch {
      return false;
    }
  };
  return {
    pathOf,
    has,
    async put(data) {
      const hash = sha256Hex(data);
      if (await has(hash)) return hash;
      const final = pathOf(hash);
      const tmpDir = path.join(root, "tmp");
      await mkdir(tmpDir, { recursive: true });
      await mkdir(path.dirname(final), { recursive: true });
      const tmp = path.join(tmpDir, `${hash}.${randomUUID()}`);
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
      return hash;
    },
    async get(hash) {
      try {
        return new Uint8Array(await readFile(pathOf(hash)));
      } catch (err) {
        throw new DocprocError("not_found", `blob ${hash} is missing`, { cause: err });
      }
    },
  };
}
