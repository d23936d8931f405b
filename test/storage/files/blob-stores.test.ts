/**
 * The blob store contract (src/storage/files/blobs.ts), one set of tests run against every implementation: the data
 * directory and S3 (on s3rver, a protocol stand-in on loopback: test/support/s3.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { DocprocError } from "../../../src/core/errors";
import { sha256OfBytes, type BlobStore } from "../../../src/storage/files/blobs";
import { copyStore } from "../../../src/storage/files/copy-store";
import { openBlobStore, parseStorageUrl, storageConfigOf } from "../../../src/storage/files/storage-config";
import { startTestS3, type TestS3 } from "../../support/s3";
import { makeTempDir } from "../../support/temp";
import { loadEnvSettings } from "../../../src/settings/env";

let s3: TestS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function walk(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    out = statSync(p).isDirectory() ? out.concat(walk(p)) : out.concat(p);
  }
  return out;
}

interface Subject {
  store: BlobStore;
  /** Every object key the backend holds (relative to the store's root), temporary ones included. */
  keys(): Promise<string[]>;
  /**
   * Whether a reader racing a write sees no object, the old one or the new one, whole. S3 guarantees it; s3rver (the
   * stand-in) writes the object file in place, so a reader racing even the first write of a blob can read part of
   * it (CI saw one such read): the race is checked on the data directory only.
   */
  writesAreAtomic: boolean;
}

let n = 0;
const stores: Record<string, () => Promise<Subject>> = {
  fs: async () => {
    const dir = makeTempDir("blobs");
    dirs.push(dir);
    const store = openBlobStore(storageConfigOf(dir));
    return {
      store,
      keys: async () => walk(dir).map((f) => path.relative(dir, f).split(path.sep).join("/")),
      writesAreAtomic: true,
    };
  },
  s3: async () => {
    const prefix = `t${++n}/p`;
    const store = openBlobStore(s3.config(prefix));
    const client = new Bun.S3Client(s3.config(prefix));
    return {
      store,
      keys: async () =>
        ((await client.list({ prefix: `${prefix}/` })).contents ?? []).map((o) => o.key.slice(prefix.length + 1)),
      writesAreAtomic: false,
    };
  },
};

const bytes = (size: number, seed: number) => {
  const b = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
};

async function drain(stream: ReadableStream<Uint8Array>): Promise<{ data: Uint8Array; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const c of stream as unknown as AsyncIterable<Uint8Array>) parts.push(c);
  return { data: new Uint8Array(Buffer.concat(parts)), chunks: parts.length };
}

describe.each(Object.keys(stores))("blob store: %s", (kind) => {
  const make = () => stores[kind]!();

  test("put, get and has; the same bytes are stored once", async () => {
    const { store, keys } = await make();
    const data = bytes(70_000, 1);
    const hash = await store.put(data);
    expect(hash).toBe(sha256OfBytes(data));
    expect(await store.has(hash)).toBe(true);
    expect(await store.get(hash)).toEqual(data);
    expect(await store.put(new Uint8Array(data))).toBe(hash);
    const other = await store.put(bytes(10, 2));
    expect(other).not.toBe(hash);
    const blobKeys = (await keys()).filter((k) => k.startsWith("blobs/sha256/"));
    expect(blobKeys.sort()).toEqual(
      [
        `blobs/sha256/${hash.slice(0, 2)}/${hash.slice(2)}`,
        `blobs/sha256/${other.slice(0, 2)}/${other.slice(2)}`,
      ].sort(),
    );
  });

  test("a missing blob is not_found; a missing object is null; bad keys and digests are refused", async () => {
    const { store } = await make();
    const absent = sha256OfBytes(bytes(5, 3));
    expect(await store.has(absent)).toBe(false);
    const err = await store.get(absent).catch((e) => e);
    expect(err).toBeInstanceOf(DocprocError);
    expect((err as DocprocError).code).toBe("not_found");
    expect(await store.read("exports/none/a.json")).toBeNull();
    expect(await store.open("exports/none/a.json")).toBeNull();
    for (const key of ["../x", "exports/../../x", "/etc/passwd", "a//b", "a/./b", "a\\b", "a\0b", ""]) {
      expect(store.write(key, "x")).rejects.toThrow(/refusing storage key/);
    }
    expect(store.get("../../etc/passwd")).rejects.toThrow(/not a sha256 digest/);
  });

  test("named objects: write replaces, read and open return them, removeAll takes one prefix only", async () => {
    const { store, keys } = await make();
    await store.write("exports/t1/a.json", '{"v":1}');
    await store.write("exports/t1/csv/b c.csv", "a,b\n");
    await store.write("exports/t10/a.json", "keep");
    await store.write("exports/t1/a.json", '{"v":2}');
    expect(new TextDecoder().decode((await store.read("exports/t1/a.json"))!)).toBe('{"v":2}');
    const opened = (await store.open("exports/t1/csv/b c.csv"))!;
    expect(opened.size).toBe(4);
    expect(new TextDecoder().decode((await drain(opened.stream())).data)).toBe("a,b\n");
    await store.removeAll("exports/t1");
    expect(await store.read("exports/t1/a.json")).toBeNull();
    expect(await store.read("exports/t1/csv/b c.csv")).toBeNull();
    expect(await store.read("exports/t10/a.json")).not.toBeNull();
    expect((await keys()).filter((k) => k.startsWith("exports/"))).toEqual(["exports/t10/a.json"]);
  });

  test("atomic: readers racing writers see a whole object or none, and no temporary object stays", async () => {
    const { store, keys, writesAreAtomic } = await make();
    const data = bytes(6 * 1024 * 1024, 4);
    const hash = sha256OfBytes(data);
    let writing = true;
    const pad = "x".repeat(512 * 1024);
    const reader = (async () => {
      while (writing) {
        if (writesAreAtomic && (await store.has(hash))) {
          expect(sha256OfBytes(await store.get(hash))).toBe(hash);
        }
        const o = writesAreAtomic ? await store.read("state/t.json") : null;
        if (o) expect(JSON.parse(new TextDecoder().decode(o)).pad.length).toBe(pad.length);
        await Bun.sleep(1);
      }
    })();
    // Two puts of the same bytes at once overwrite one object: only where writes are atomic (see Subject).
    const puts = writesAreAtomic ? [store.put(data), store.put(data)] : [store.put(data)];
    await Promise.all([...puts, ...[1, 2, 3].map((i) => store.write("state/t.json", JSON.stringify({ n: i, pad })))]);
    writing = false;
    await reader;
    expect(sha256OfBytes(await store.get(hash))).toBe(hash);
    const all = await keys();
    expect(all.sort()).toEqual([`blobs/sha256/${hash.slice(0, 2)}/${hash.slice(2)}`, "state/t.json"]);
  });

  test("a large object streams in chunks with its size known first", async () => {
    const { store } = await make();
    const data = bytes(12 * 1024 * 1024, 5);
    const hash = await store.put(data);
    const viaBlob = (await store.open(`blobs/sha256/${hash.slice(0, 2)}/${hash.slice(2)}`))!;
    expect(viaBlob.size).toBe(data.length);
    await store.write("exports/big/file.pdf", data);
    const opened = (await store.open("exports/big/file.pdf"))!;
    expect(opened.size).toBe(data.length);
    const { data: back, chunks } = await drain(opened.stream());
    expect(chunks).toBeGreaterThan(1);
    expect(sha256OfBytes(back)).toBe(hash);
  });
});

describe.each([
  ["fs", "s3"],
  ["s3", "fs"],
])("copying a store: %s to %s", (src, dst) => {
  test("list names every object; copyStore copies blobs, exports and state once, and a second run copies nothing", async () => {
    const [a, b] = [await stores[src]!(), await stores[dst]!()];
    const blobs = [bytes(3000, 7), bytes(200_000, 8)];
    const hashes = await Promise.all(blobs.map((d) => a.store.put(d)));
    await a.store.write("exports/t1/t1_data.json", '{"a":1}');
    await a.store.write("exports/t1/csv/sum.csv", "x,y\n");
    await a.store.write("state/t1.json", '{"version":1}');
    const listed: string[] = [];
    for (const p of ["blobs", "exports", "state"]) for await (const k of a.store.list(p)) listed.push(k);
    expect(listed.sort()).toEqual(
      [
        ...hashes.map((h) => `blobs/sha256/${h.slice(0, 2)}/${h.slice(2)}`),
        "exports/t1/csv/sum.csv",
        "exports/t1/t1_data.json",
        "state/t1.json",
      ].sort(),
    );

    expect(await copyStore(a.store, b.store)).toEqual({ copied: 5, skipped: 0, bytes: 3000 + 200_000 + 7 + 4 + 13 });
    for (const [i, h] of hashes.entries()) expect(await b.store.get(h)).toEqual(blobs[i]!);
    expect(new TextDecoder().decode((await b.store.read("exports/t1/csv/sum.csv"))!)).toBe("x,y\n");
    expect(new TextDecoder().decode((await b.store.read("state/t1.json"))!)).toBe('{"version":1}');
    expect(await copyStore(a.store, b.store)).toEqual({ copied: 0, skipped: 5, bytes: 0 });
  });
});

describe("DOCPROC_STORAGE_URL", () => {
  test("s3://bucket/prefix parses; a bad URL says what is wrong", () => {
    expect(parseStorageUrl("s3://my-bucket/docproc/prod/", { endpoint: "http://127.0.0.1:9000" })).toMatchObject({
      bucket: "my-bucket",
      prefix: "docproc/prod",
      virtualHostedStyle: false,
    });
    expect(parseStorageUrl("s3://my-bucket")).toMatchObject({
      bucket: "my-bucket",
      prefix: "",
      virtualHostedStyle: true,
    });
    expect(() => parseStorageUrl("file:///srv/x")).toThrow(/must be s3:\/\/bucket\/prefix/);
    expect(() => parseStorageUrl("s3://Bad_Bucket/x")).toThrow(/not a valid S3 bucket name/);
    expect(() => parseStorageUrl("s3://bucket/a/../b")).toThrow(/\.\. segment/);
  });

  test("the environment: unset is the data directory; S3 settings come from the usual AWS variables", () => {
    expect(loadEnvSettings({}).storage).toBeNull();
    const env = {
      DOCPROC_STORAGE_URL: "s3://docs/prod",
      AWS_ENDPOINT_URL: "http://127.0.0.1:1",
      AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9000",
      AWS_DEFAULT_REGION: "eu-central-1",
      AWS_ACCESS_KEY_ID: "id",
      AWS_SECRET_ACCESS_KEY: "secret",
    };
    expect(loadEnvSettings(env).storage).toEqual({
      kind: "s3",
      bucket: "docs",
      prefix: "prod",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-central-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      sessionToken: undefined,
      virtualHostedStyle: false,
    });
    expect(loadEnvSettings({ ...env, DOCPROC_S3_VIRTUAL_HOSTED: "true" }).storage).toMatchObject({
      virtualHostedStyle: true,
    });
    expect(() =>
      loadEnvSettings({
        DOCPROC_STORAGE_URL: "/srv/blobs",
        AWS_ENDPOINT_URL_S3: "localhost:9000",
        DOCPROC_S3_VIRTUAL_HOSTED: "yes",
      }),
    ).toThrow(
      /DOCPROC_STORAGE_URL must be s3:\/\/bucket\/prefix.*AWS_ENDPOINT_URL_S3 must be an http\(s\) URL.*DOCPROC_S3_VIRTUAL_HOSTED must be true or false/,
    );
  });
});
