/**
 * Export downloads come from the blob store, on both stores: files up to BUFFERED_DOWNLOAD_BYTES carry their
 * Content-Length; a larger file on S3 streams chunked, byte for byte; the data directory sends files as they are.
 * The runner writes through the same sink choice as the core runner (the bucket, or the export folder).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { folderSink } from "../../../src/core/exporters/sink";
import type { PipelineRunner } from "../../../src/queue/pipeline-runner";
import { BUFFERED_DOWNLOAD_BYTES } from "../../../src/server/routes/results";
import { sha256OfBytes } from "../../../src/storage/files/blobs";
import { exportSinkFor } from "../../../src/storage/files/store-sink";
import { buildTestApp } from "../../support/app";
import { requestInit } from "../../support/http";
import { startTestS3, type TestS3 } from "../../support/s3";

const KEY = "downloads-key";
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => s3.stop());

const big = new Uint8Array(BUFFERED_DOWNLOAD_BYTES + 1024 * 1024).map((_, i) => (i * 31 + (i >> 12)) & 255);
const small = new TextEncoder().encode('{"ok":true}');

/** Writes `big.pdf` and `small.json` where the core runner would, and lists them in the manifest. */
const runner: PipelineRunner = async (_input, ctx) => {
  const id = ctx.meta.transaction_id;
  const sink = (ctx.storage && exportSinkFor(ctx.storage, id)) || folderSink(ctx.exportDir);
  await sink.write("big.pdf", big);
  await sink.write("small.json", small);
  const now = new Date().toISOString();
  const file = (filename: string, size: number) => ({
    filename,
    path: `exports/${filename}`,
    size_bytes: size,
    document_ids: [],
    created_at: now,
  });
  return {
    status: "success",
    documents: [],
    pages: [],
    manifest: {
      transaction_id: id,
      profiles: {
        p: {
          profile_id: "p",
          profile_name: "P",
          output_format: "pdf",
          scope_mode: "per_transaction",
          files: [file("big.pdf", big.length), file("small.json", small.length)],
        },
      },
      total_files: 2,
      total_size_bytes: big.length + small.length,
    },
    errors: [],
    warnings: [],
  };
};

let n = 0;
describe.each(["fs", "s3"])("downloads from the %s store", (kind) => {
  test("small files with Content-Length; a large one streamed whole", async () => {
    const t = buildTestApp({
      adminKey: KEY,
      prefix: "downloads",
      runner,
      ...(kind === "s3" ? { storage: s3.config(`dl${++n}`) } : {}),
    });
    try {
      const base = t.listen();
      const call = (method: string, url: string, body?: unknown) =>
        fetch(`${base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
      const pid = ((await (await call("POST", "/tenants/default/projects", { name: "P" })).json()) as any).project_id;
      const r = (await (
        await call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
          source_files: [{ filename: "a.pdf", base64_data: "YQ==" }],
        })
      ).json()) as any;
      while (await t.runtime.pool.runOnce()) {}
      const id = r.transaction_id as string;

      const s = await call("GET", `/transactions/${id}/exports/download/small.json`);
      expect(s.headers.get("content-length")).toBe(String(small.length));
      expect(await s.text()).toBe('{"ok":true}');

      const b = await call("GET", `/transactions/${id}/exports/download/big.pdf`);
      expect(b.status).toBe(200);
      expect(b.headers.get("content-type")).toBe("application/pdf");
      // From S3 a file above the limit streams chunked (Bun sends no length with a stream); files on disk keep theirs.
      expect(b.headers.get("content-length")).toBe(kind === "fs" ? String(big.length) : null);
      expect(sha256OfBytes(new Uint8Array(await b.arrayBuffer()))).toBe(sha256OfBytes(big));
    } finally {
      await t.close();
    }
  });
});
