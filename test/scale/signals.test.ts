/**
 * LISTEN/NOTIFY between processes on PostgreSQL (storage/schema/pg/signals.ts, `Db.listen`): an API-only server whose
 * long-poll re-check is an hour away still answers a long poll as soon as a worker in another process completes the
 * transaction, and a new job wakes an idle worker elsewhere at once (its poll is an hour away too).
 * Two runtimes in this test process, each on its own connection, stand for the two processes.
 */
import { afterAll, expect, test } from "bun:test";
import { enqueue } from "../../src/storage/jobs/jobs";
import { createWorkerPool } from "../../src/queue/worker";
import { systemClock } from "../../src/core/clock";
import { openPostgres } from "../../src/storage/schema/pg/open";
import { buildTestApp, type TestApp } from "../support/app";
import { freshPostgresUrl } from "../support/postgres";
import { waitFor } from "../support/wait";

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

test("a long poll on an API-only server wakes on a completion made by another process's worker", async () => {
  const url = freshPostgresUrl();
  const api = buildTestApp({
    adminKey: "k",
    prefix: "signals-api",
    databaseUrl: url,
    wirePool: false,
    config: { longPollRecheckMs: 3_600_000 },
  });
  apps.push(api);
  const worker = buildTestApp({ adminKey: "k", prefix: "signals-worker", dir: api.dir, databaseUrl: url, workers: 1 });
  apps.push(worker);
  const call = (method: string, path: string, body?: unknown) =>
    api.app
      .handle(
        new Request(`http://local${path}`, {
          method,
          headers: { "x-api-key": "k", "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      .then((r) => r.json() as Promise<any>);
  const project = await call("POST", "/tenants/default/projects", { name: "signals", description: "" });
  const created = await call("POST", `/tenants/default/projects/${project.project_id}/transactions`, {});
  const form = new FormData();
  form.append("files", new File(["INVOICE 1\nTotal: 10.00 EUR\n"], "a.txt", { type: "text/plain" }));
  await api.app.handle(
    new Request(`http://local/transactions/${created.transaction_id}/source-files`, {
      method: "POST",
      headers: { "x-api-key": "k" },
      body: form,
    }),
  );
  // Both listen before anything happens: a NOTIFY sent while a LISTEN connection is still opening is lost (in service,
  // polling covers that moment; here the API's re-check is an hour away). Under load opening one took seconds.
  expect(await api.runtime.signalsReady).toBe(true);
  expect(await worker.runtime.signalsReady).toBe(true);
  // Only the API server knows of the new job; the worker runtime hears of it through NOTIFY and runs it.
  const started = Date.now();
  await call("POST", `/transactions/${created.transaction_id}/start`, {});
  let status = "queued";
  for (let i = 0; i < 5 && status !== "completed"; i++)
    status = (await call("GET", `/transactions/${created.transaction_id}?timeout=30`)).status;
  expect(status).toBe("completed");
  expect(Date.now() - started).toBeLessThan(20_000);
}, 60_000);

test("a new job wakes an idle worker pool of another process at once", async () => {
  const url = freshPostgresUrl();
  const a = openPostgres(url);
  const b = openPostgres(url);
  const ran: number[] = [];
  const pool = createWorkerPool({ db: b, clock: systemClock, concurrency: 1, pollMs: 3_600_000, workerId: "far-away" });
  pool.registerHandler("k", async () => {
    ran.push(Date.now());
  });
  const signals = await b.listen({ jobs: () => pool.wake(), status: () => {} });
  pool.start();
  // start() made the pool's first look (a synchronous claim) and left it idle: its next poll is an hour away.
  const at = Date.now();
  enqueue(a, systemClock, { kind: "k", payload: {} });
  await waitFor("the job to run", () => ran.length > 0, { timeoutMs: 5_000 });
  expect(ran.length).toBe(1);
  expect(ran[0]! - at).toBeLessThan(3_000);
  await pool.stop({ graceful: true });
  await signals.close();
  a.close();
  b.close();
}, 30_000);
