/**
 * A queued transaction's source files as its job reads them (src/queue/transaction-load.ts): a PDF of 1 MB or more
 * from the data directory arrives in shared memory, as `docproc process` reads a file, so it reaches the pipeline
 * thread and its pdf.js workers without a copy; other files and other stores come as plain bytes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import path from "node:path";
import { fsBlobStore, type BlobStore } from "../../src/storage/files/blobs";
import { storedSourceBytes } from "../../src/queue/transaction-load";
import { freshDb } from "../storage/helpers";

let env: ReturnType<typeof freshDb>;
afterEach(() => env?.cleanup());

/** Bytes of `size` that start like a PDF (what readSourceFile looks for) or not. */
function bytesOf(size: number, pdf: boolean): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) & 0xff;
  if (pdf) out.set(new TextEncoder().encode("%PDF-1.7\n"));
  return out;
}

const isShared = (b: Uint8Array) => b.buffer instanceof SharedArrayBuffer;

describe("a stored source file's bytes", () => {
  test("a PDF of 1 MB or more from the data directory is read into shared memory, byte for byte", async () => {
    env = freshDb();
    const blobs = fsBlobStore(path.join(env.dir, "blobs"));
    const pdf = bytesOf(1.5 * 1024 * 1024, true);
    const got = await storedSourceBytes(blobs, await blobs.put(pdf));
    expect(isShared(got)).toBe(true);
    expect(Buffer.compare(got, pdf)).toBe(0);
  });

  test("small PDFs, other files and stores without local files give plain bytes; a missing blob is not_found", async () => {
    env = freshDb();
    const blobs = fsBlobStore(path.join(env.dir, "blobs"));
    const small = bytesOf(4096, true);
    const image = bytesOf(1.5 * 1024 * 1024, false);
    for (const data of [small, image]) {
      const got = await storedSourceBytes(blobs, await blobs.put(data));
      expect(isShared(got)).toBe(false);
      expect(Buffer.compare(got, data)).toBe(0);
    }
    // A store without files on this host (S3): its own get.
    const { pathOf: _p, ...remote } = blobs;
    const pdf = bytesOf(1.5 * 1024 * 1024, true);
    const got = await storedSourceBytes(remote as BlobStore, await blobs.put(pdf));
    expect(isShared(got)).toBe(false);
    expect(Buffer.compare(got, pdf)).toBe(0);
    await expect(storedSourceBytes(blobs, "0".repeat(64))).rejects.toMatchObject({ code: "not_found" });
  });
});
