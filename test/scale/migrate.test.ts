/**
 * `docproc migrate`: a data directory (SQLite + files) moved into PostgreSQL and an S3-compatible bucket (s3rver,
 * the protocol stand-in of test/support/s3.ts). A server started afterwards on an empty directory with the two
 * variables answers for the old transactions: statuses, documents and the same export bytes. Run twice, the
 * second run copies nothing.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { buildTestApp } from "../support/app";
import { freshPostgresUrl } from "../support/postgres";
import { freePort, runCli, spawnServe, type Served } from "../support/process";
import { startTestS3, type TestS3 } from "../support/s3";
import { makeTempDir } from "../support/temp";

const KEY = "migrate-test-admin-key";
let s3: TestS3 | undefined;
let served: Served | undefined;
const dirs: string[] = [];
afterAll(async () => {
  served?.proc.kill("SIGKILL");
  await served?.proc.exited;
  await s3?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("a data directory moves into PostgreSQL and a bucket; a server on an empty directory serves its transactions", async () => {
  // The old installation: SQLite and the data directory (databaseUrl "" forces SQLite on the PostgreSQL run).
  const old = buildTestApp({ adminKey: KEY, prefix: "migrate-old", databaseUrl: "", workers: 1 });
  dirs.push(old.dir);
  const base = old.listen();
  const call = async (url: string, init: RequestInit = {}) =>
    fetch(base + url, { ...init, headers: { "x-api-key": KEY, ...(init.headers ?? {}) } });
  const project = (await (
    await call("/tenants/default/projects", {
      method: "POST",
      body: JSON.stringify({ name: "old", description: "" }),
      headers: { "content-type": "application/json" },
    })
  ).json()) as any;
  const ids: string[] = [];
  for (const n of [1, 2]) {
    const t = (await (
      await call(`/tenants/default/projects/${project.project_id}/transactions`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      })
    ).json()) as any;
    const form = new FormData();
    form.append("files", new File([`INVOICE ${n}\nTotal: ${n}0.00 EUR\n`], `doc-${n}.txt`, { type: "text/plain" }));
    await call(`/transactions/${t.transaction_id}/source-files`, { method: "POST", body: form });
    await call(`/transactions/${t.transaction_id}/start`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    ids.push(t.transaction_id);
  }
  const before: Record<string, { status: string; file: string; bytes: string }> = {};
  for (const id of ids) {
    const done = (await (await call(`/transactions/${id}?timeout=30`)).json()) as any;
    const final =
      done.status === "completed" ? done : ((await (await call(`/transactions/${id}?timeout=30`)).json()) as any);
    const manifest = (await (await call(`/transactions/${id}/exports`)).json()) as any;
    const file = Object.values(manifest.profiles).flatMap((p: any) => p.files)[0] as any;
    before[id] = {
      status: final.status,
      file: file.filename,
      bytes: await (await call(`/transactions/${id}/exports/download/${file.filename}`)).text(),
    };
  }
  expect(Object.values(before).map((b) => b.status)).toEqual(["completed", "completed"]);
  await old.close({ keepDir: true });

  s3 = await startTestS3();
  const env = { DOCPROC_DATABASE_URL: freshPostgresUrl(), ...s3.env("moved") };
  const first = await runCli(["migrate", "--data", old.dir, "--json"], { env });
  expect(first.stderr).toBe("");
  expect(first.code).toBe(0);
  const report = JSON.parse(first.stdout);
  expect(report.tables.find((t: any) => t.table === "transactions")).toMatchObject({ rows: 2, copied: 2 });
  expect(report.files.copied).toBeGreaterThan(2); // two originals, their exports and run state
  const again = JSON.parse((await runCli(["migrate", "--data", old.dir, "--json"], { env })).stdout);
  expect(again.tables.reduce((n: number, t: any) => n + t.copied, 0)).toBe(0);
  expect(again.files.copied).toBe(0);

  const empty = makeTempDir("migrate-new");
  dirs.push(empty);
  served = await spawnServe({ dataDir: empty, port: await freePort(), key: KEY, workers: 0, env });
  for (const id of ids) {
    const t = (await (
      await fetch(`${served.base}/transactions/${id}`, { headers: { "x-api-key": KEY } })
    ).json()) as any;
    expect(t.status).toBe("completed");
    const bytes = await (
      await fetch(`${served.base}/transactions/${id}/exports/download/${before[id]!.file}`, {
        headers: { "x-api-key": KEY },
      })
    ).text();
    expect(bytes).toBe(before[id]!.bytes);
  }
}, 180_000);
