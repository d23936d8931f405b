/**
 * Dataset semantics over a real loopback server (docs/datasets.md): evaluation datasets created with a name (UUID
 * returned); the playground runs the workflow but fires no webhook (a real HTTP receiver listens), does not count
 * toward the async budget and stays out of default lists; production does all three.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mergeOverDefault } from "../../src/core/project";
import { buildTestApp, type TestApp } from "../support/app";
import { requestInit } from "../support/http";
import { startReceiver, type Receiver } from "../core/notify/receiver";

const ADMIN = "datasets-admin-key";
let t: TestApp;
let base: string;
let rx: Receiver;
let project: string;
let key: string;

async function call(method: string, url: string, body?: unknown, k = key) {
  const res = await fetch(base + url, requestInit(method, { "x-api-key": k }, body));
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function waitDone(id: string) {
  for (let i = 0; i < 120; i++) {
    const s = await call("GET", `/transactions/${id}?timeout=5`);
    if (s.json.status === "completed" || s.json.status === "failed") return s.json;
  }
  throw new Error(`${id} did not finish`);
}

/** Create → upload a small text file → start, the three-step way a dataset is chosen. */
async function startIn(dataset: string): Promise<{ id: string; start: number }> {
  const c = await call("POST", `/tenants/default/projects/${project}/transactions`, { dataset_id: dataset });
  expect(c.status).toBe(201);
  const f = new FormData();
  f.append("files", new File(["INVOICE\nInvoice No: 7\nTotal 10.00 EUR\n"], "a.txt", { type: "text/plain" }));
  const up = await fetch(`${base}/transactions/${c.json.transaction_id}/source-files`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: f,
  });
  expect(up.status).toBeLessThan(300);
  const s = await call("POST", `/transactions/${c.json.transaction_id}/start`);
  return { id: c.json.transaction_id, start: s.status };
}

beforeAll(async () => {
  rx = startReceiver();
  t = buildTestApp({
    adminKey: ADMIN,
    prefix: "datasets",
    workers: 1,
    auth: { asyncPerHour: 2 },
    webhooks: { publicBaseUrl: () => base, allowPrivate: ["127.0.0.0/8"] },
  });
  base = t.listen();
  const workflow = [
    { type: "export" },
    { type: "notification", id: "notify", activity: { webhook_url: rx.url("/hook") } },
  ];
  const p = await call(
    "POST",
    "/tenants/default/projects",
    { name: "ds", description: "", settings: mergeOverDefault({ workflow }) },
    ADMIN,
  );
  expect(p.status).toBe(201);
  project = p.json.project_id;
  await call(
    "POST",
    "/admin/clients",
    {
      client_id: "ds-client",
      name: "ds",
      permissions: ["transaction.create", "transaction.read", "project.manage", "split", "classify", "extract"],
    },
    ADMIN,
  );
  key = (await call("POST", "/admin/clients/ds-client/keys", { description: "t" }, ADMIN)).json.api_key;
}, 60_000);
afterAll(async () => {
  await t?.close();
  rx?.stop();
});

describe("datasets", () => {
  test("an evaluation dataset is created with a name and answers its UUID; transactions name it, unknown UUIDs are refused", async () => {
    const r = await call("POST", `/tenants/default/projects/${project}/datasets`, { name: "Q3 invoices" });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: "Q3 invoices", project_id: project, kind: "evaluation" });
    expect(r.json.dataset_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      (await call("POST", `/tenants/default/projects/${project}/datasets`, { name: "Q3 invoices" })).json.detail,
    ).toContain("already has a dataset named");
    expect((await call("POST", `/tenants/default/projects/${project}/datasets`, { name: "" })).status).toBe(400);
    const c = await call("POST", `/tenants/default/projects/${project}/transactions`, {
      dataset_id: r.json.dataset_id,
    });
    expect(c.status).toBe(201);
    const unknown = await call("POST", `/tenants/default/projects/${project}/transactions`, {
      dataset_id: crypto.randomUUID(),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.detail).toContain("no evaluation dataset");
    const list = await call("GET", `/tenants/default/projects/${project}/datasets`);
    expect(list.json.items).toEqual([
      expect.objectContaining({ dataset_id: r.json.dataset_id, name: "Q3 invoices", transactions: { created: 1 } }),
    ]);
    const inIt = await call("GET", `/transactions?dataset_id=${r.json.dataset_id}`);
    expect(inIt.json.items.map((x: { transaction_id: string }) => x.transaction_id)).toEqual([c.json.transaction_id]);
  });

  test("playground: same workflow, no webhook, no async budget, not in the default list; production: all three", async () => {
    // Three playground runs with a budget of two submissions an hour: none is refused.
    const play = [await startIn("playground"), await startIn("playground"), await startIn("playground")];
    expect(play.map((p) => p.start)).toEqual([200, 200, 200]);
    for (const p of play) expect((await waitDone(p.id)).status).toBe("completed");
    // The budget is still whole: two production starts pass, the third is refused.
    const prod = [await startIn("production"), await startIn("production")];
    expect(prod.map((p) => p.start)).toEqual([200, 200]);
    const third = await startIn("production");
    expect(third.start).toBe(429);
    for (const p of prod) expect((await waitDone(p.id)).status).toBe("completed");
    // Production notified (the receiver got one request per production run); the playground never did.
    await rx.arrived(2, 20_000);
    const notified = rx.received.map(
      (r) => JSON.parse(r.body).transaction_id ?? JSON.parse(r.body).data?.transaction_id,
    );
    expect(notified.sort()).toEqual(prod.map((p) => p.id).sort());
    for (const p of play) expect((await call("GET", `/transactions/${p.id}/deliveries`)).json.deliveries).toEqual([]);
    // Default lists are production only; the playground is listed when asked for.
    const listed = (await call("GET", "/transactions")).json.items.map(
      (x: { transaction_id: string }) => x.transaction_id,
    );
    for (const p of play) expect(listed).not.toContain(p.id);
    for (const p of prod) expect(listed).toContain(p.id);
    const playList = (await call("GET", "/transactions?dataset_id=playground")).json.items.map(
      (x: { transaction_id: string }) => x.transaction_id,
    );
    expect(playList.sort()).toEqual(play.map((p) => p.id).sort());
  }, 120_000);
});
