/**
 * `docproc serve --workers 0` plus a separate `docproc worker` process on the same data directory; graceful
 * shutdown on SIGTERM while a long poll is held.
 */
import { afterAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { rmSync } from "node:fs";
import path from "node:path";
import { capture, freePort, spawnCommand, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";

const KEY = "workers-key";
const dir = makeTempDir("workers");
const data = path.join(dir, "data");
const procs: Subprocess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("a separate worker process completes a one-step transaction that the API server long-polls", async () => {
  const server: Served = await spawnServe({ dataDir: data, port: await freePort(), key: KEY, workers: 0 });
  procs.push(server.proc);
  const worker = spawnCommand("worker", ["--data", data], { ADMIN_API_KEY: KEY });
  procs.push(worker);
  const workerOut = capture(worker);
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
    return { status: res.status, json: (await res.json()) as any };
  };
  const pid = (await api("POST", "/tenants/default/projects", { name: "W" })).json.project_id;
  // A long poll longer than Bun's default 10 s idle timeout must be held, not cut (runs alongside the rest).
  const idle = (await api("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
  const longStart = performance.now();
  const longPoll = fetch(`${server.base}/transactions/${idle}?timeout=11`, { headers: { "x-api-key": KEY } }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as any, ms: performance.now() - longStart }),
  );
  const sent = await api("POST", `/tenants/default/projects/${pid}/transactions/process`, {
    documentText: "INVOICE\nInvoice number: INV-4711\nDate: 2024-03-01\nTotal: 119.00 EUR",
    correlation_id: "worker-1",
  });
  expect(sent.status).toBe(202);
  let status = "";
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && status !== "completed" && status !== "failed") {
    status = (await api("GET", `${sent.json.poll_url}`)).json.status;
  }
  expect(status).toBe("completed");
  const docs = (await api("GET", `/transactions/${sent.json.transaction_id}/documents`)).json.documents;
  expect(docs.length).toBeGreaterThan(0);
  const health = (await api("GET", "/health")).json;
  expect(health.queue).toMatchObject({ depth: 0, workers: 1, running: 0 });
  expect(health.ocr.status).toBe("idle"); // this process ran no job: its engine was never loaded

  const held11 = await longPoll;
  expect(held11.status).toBe(200);
  expect(held11.body.status).toBe("created");
  expect(held11.ms).toBeGreaterThanOrEqual(10_900);

  // SIGTERM while a long poll is held: the poll is answered at once and the server exits 0.
  const created = (await api("POST", `/tenants/default/projects/${pid}/transactions`, {})).json;
  const t0 = performance.now();
  const held = fetch(`${server.base}/transactions/${created.transaction_id}?timeout=60`, {
    headers: { "x-api-key": KEY },
  });
  await Bun.sleep(300);
  server.proc.kill("SIGTERM");
  const answered = (await (await held).json()) as any;
  expect(answered.status).toBe("created");
  expect(await server.proc.exited).toBe(0);
  expect(performance.now() - t0).toBeLessThan(10_000);
  worker.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  expect(workerOut()).toContain("docproc worker running");
}, 120_000);
