/**
 * `docproc serve` (API only) and a `docproc worker` with DOCPROC_STORAGE_URL=s3://… on the S3 stand-in
 * (test/support/s3.ts): a real PDF through the API and the real pipeline in the worker process; exports, page images
 * and run state live in the bucket, the data directory holds the
 * database only, and a second `serve` with a copy of that database and nothing else on its disk answers for the
 * transaction (downloads and page images come from the bucket, streamed).
 */
import { databaseEnv, TEST_BACKEND } from "../../support/postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { capture, freePort, ROOT, runCli, spawnCommand, spawnServe, type Served } from "../../support/process";
import { requestInit } from "../../support/http";
import { startTestS3, S3_BUCKET, type TestS3 } from "../../support/s3";
import { makeTempDir } from "../../support/temp";

const CORPUS = path.resolve(ROOT, "fixtures/corpora/invoice2data");
const KEY = "s3-key";
const dir = makeTempDir("s3-serve");
let s3: TestS3;
const servers: Served[] = [];

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  for (const s of servers) {
    s.proc.kill("SIGTERM");
    await s.proc.exited;
  }
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (base: string) => async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, res, type, json: type.includes("json") ? ((await res.clone().json()) as any) : null };
};

async function stop(s: Served): Promise<void> {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
  servers.splice(servers.indexOf(s), 1);
}

test("serve and worker on S3: a PDF processed through the API, exports and page image from the bucket, nothing but the database on disk", async () => {
  const data = path.join(dir, "data");
  const first = await spawnServe({ dataDir: data, port: await freePort(), key: KEY, workers: 0, env: s3.env("e2e") });
  servers.push(first);
  const worker = spawnCommand("worker", ["--data", data, "--concurrency", "1"], s3.env("e2e"));
  const workerOutput = capture(worker);
  const api = call(first.base);
  expect(first.output()).toContain(`storage: s3://${S3_BUCKET}/e2e at ${s3.endpoint}`);

  const health = await api("GET", "/admin/endpoints/health");
  expect(health.status).toBe(200);
  expect(health.json.endpoints.find((e: any) => e.name === "export_storage")).toMatchObject({
    status: "ok",
    kind: "s3",
  });

  const project = await api("POST", "/tenants/default/projects", { name: "S3", description: "invoices" });
  const created = await api("POST", `/tenants/default/projects/${project.json.project_id}/transactions`, {});
  const id = created.json.transaction_id as string;
  const form = new FormData();
  form.append(
    "files",
    new File([readFileSync(path.join(CORPUS, "AmazonWebServices.pdf"))], "AmazonWebServices.pdf", {
      type: "application/pdf",
    }),
  );
  expect((await api("POST", created.json.files_url, form)).json.uploaded_files[0]).toMatchObject({
    index: 0,
    duplicate: false,
  });
  const started = await api("POST", created.json.start_url, {});
  let status = "";
  for (
    const deadline = Date.now() + 120_000;
    Date.now() < deadline && status !== "completed" && status !== "failed";
  ) {
    status = (await api("GET", started.json.poll_url)).json.status;
  }
  expect(status).toBe("completed");
  expect(workerOutput()).toContain(`storage: s3://${S3_BUCKET}/e2e`);
  worker.kill("SIGTERM");
  expect(await worker.exited).toBe(0);

  const manifest = (await api("GET", `/transactions/${id}/exports`)).json;
  const files = Object.values(manifest.profiles).flatMap((p: any) => p.files ?? []) as Array<{
    filename: string;
    size_bytes: number;
  }>;
  expect(files.length).toBeGreaterThan(0);
  const downloads = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const f of files) {
    const res = await fetch(`${first.base}/transactions/${id}/exports/download/${encodeURIComponent(f.filename)}`, {
      headers: { "x-api-key": KEY },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(f.size_bytes));
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.length).toBe(f.size_bytes);
    downloads.set(f.filename, body);
  }
  const results = JSON.parse(new TextDecoder().decode([...downloads].find(([n]) => n.endsWith("_data.json"))![1]));
  expect(results.transaction_id).toBe(id);
  expect((await api("GET", `/transactions/${id}/exports/download/..%2F..%2Fdocproc.db`)).status).toBe(404);

  const image = await fetch(`${first.base}/transactions/${id}/pages/1/image`, { headers: { "x-api-key": KEY } });
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/jpeg");
  const jpeg = new Uint8Array(await image.arrayBuffer());
  expect([...jpeg.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

  // In the bucket: the original and the page image (content-addressed), the export files and the run state.
  const keys = ((await new Bun.S3Client(s3.config("e2e")).list({ prefix: "e2e/" })).contents ?? []).map((o) => o.key);
  expect(keys.filter((k) => k.startsWith("e2e/blobs/sha256/")).length).toBe(2);
  for (const f of files) expect(keys).toContain(`e2e/exports/${id}/${f.filename}`);
  expect(keys).toContain(`e2e/state/${id}.json`);
  await stop(first);
  // On the PostgreSQL run the directory holds nothing at all (not even created).
  expect(
    existsSync(data)
      ? readdirSync(data, { recursive: true })
          .map(String)
          .filter((f) => !/^docproc\.db(-wal|-shm)?$/.test(f))
      : [],
  ).toEqual([]);

  // "Another host": a copy of the database, an empty disk otherwise, the same bucket, no workers.
  const other = path.join(dir, "other");
  mkdirSync(other);
  // SQLite: a copy of the database file; PostgreSQL: the same database.
  if (TEST_BACKEND === "sqlite") copyFileSync(path.join(data, "docproc.db"), path.join(other, "docproc.db"));
  const second = await spawnServe({
    dataDir: other,
    port: await freePort(),
    key: KEY,
    workers: 0,
    env: { ...s3.env("e2e"), ...databaseEnv(data) },
  });
  servers.push(second);
  for (const [name, body] of downloads) {
    const res = await fetch(`${second.base}/transactions/${id}/exports/download/${encodeURIComponent(name)}`, {
      headers: { "x-api-key": KEY },
    });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
  }
  const again = await fetch(`${second.base}/transactions/${id}/pages/1/image`, { headers: { "x-api-key": KEY } });
  expect(new Uint8Array(await again.arrayBuffer())).toEqual(jpeg);
  await stop(second);
  expect(
    readdirSync(other, { recursive: true })
      .map(String)
      .filter((f) => !/^docproc\.db(-wal|-shm)?$/.test(f)),
  ).toEqual([]);
}, 180_000);

test("a bad DOCPROC_STORAGE_URL stops serve before it listens, saying what is wrong", async () => {
  const run = await runCli(["serve", "--port", "0", "--data", path.join(dir, "bad")], {
    env: { DOCPROC_STORAGE_URL: `s3://${S3_BUCKET.toUpperCase()}_x/p` },
  });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain("DOCPROC_STORAGE_URL");
  expect(run.stderr).toContain("not a valid S3 bucket name");
  expect(run.stdout).not.toContain("listening");
});

test("a bucket that cannot be used stops serve at start with the reason: missing bucket, server down", async () => {
  const missing = await runCli(["serve", "--port", "0", "--data", path.join(dir, "nobucket")], {
    env: { ...s3.env("p"), DOCPROC_STORAGE_URL: "s3://no-such-bucket/p" },
  });
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain("reaching bucket no-such-bucket");
  expect(missing.stderr).toContain("NoSuchBucket");
  const down = await runCli(["worker", "--data", path.join(dir, "down")], {
    env: { ...s3.env("p"), AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await freePort()}` },
  });
  expect(down.code).not.toBe(0);
  expect(down.stderr).toContain(`reaching bucket ${S3_BUCKET}`);
  expect(down.stdout).not.toContain("running");
});
