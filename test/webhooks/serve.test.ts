/**
 * `docproc serve` as a real process with the real pipeline: a project whose workflow has a Notification step after
 * Export. The loopback receiver verifies both signatures, compares the payload with the spec field by field, and
 * downloads every file with its OWN API key. A corrupt-only upload sends transaction.failed. A SIGKILL between two
 * attempts loses nothing: the restarted server sends the retry.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { mergeOverDefault } from "../../src/core/project";
import { startReceiver, statuses, type Receiver } from "../core/notify/receiver";
import { freePort, ROOT, runCli, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { inOrder, until, verifySignatures } from "./helpers";
import { requestInit } from "../support/http";

const KEY = "webhook-serve-admin";
const SECRET = "serve-secret";
const dir = makeTempDir("webhook-serve");
const env = { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8", DOCPROC_LEASE_SECONDS: "2" };
let server: Served;
let rx: Receiver;

const serve = async () =>
  (server = await spawnServe({ dataDir: dir, port: await freePort(), key: KEY, workers: 2, env }));
beforeAll(async () => {
  rx = startReceiver();
  await serve();
});
afterAll(async () => {
  rx.stop();
  server?.proc.kill("SIGKILL");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

async function api(method: string, url: string, body?: unknown, key = KEY) {
  const res = await fetch(server.base + url, requestInit(method, { "x-api-key": key }, body));
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") ? JSON.parse(text) : null, text };
}

async function project(activity: Record<string, unknown>): Promise<string> {
  const workflow = [
    { type: "split" },
    { type: "classify" },
    { type: "extract" },
    { type: "export" },
    { type: "notification", id: "erp", activity },
  ];
  const r = await api("POST", "/tenants/default/projects", {
    name: "hooks",
    description: "",
    settings: mergeOverDefault({ workflow }),
  });
  expect(r.status).toBe(201);
  return r.json.project_id;
}

async function submit(projectId: string, file: File): Promise<string> {
  const created = await api("POST", `/tenants/default/projects/${projectId}/transactions`, {
    metadata: { transaction_name: "March invoices" },
  });
  const form = new FormData();
  form.append("files", file);
  expect((await api("POST", created.json.files_url, form)).status).toBe(200);
  expect((await api("POST", created.json.start_url, {})).status).toBe(200);
  return created.json.transaction_id;
}

const invoice = () =>
  new File([readFileSync(path.resolve(ROOT, "fixtures/corpora/invoice2data/AmazonWebServices.pdf"))], "aws.pdf", {
    type: "application/pdf",
  });
const hitsAt = (p: string) => rx.received.filter((r) => r.path === p);
const sortedKeys = (o: object) => Object.keys(o).every((k, i, all) => i === 0 || all[i - 1]! < k);

test("a completed transaction sends a signed step_reached payload whose download links work with the receiver's own key", async () => {
  rx.reply(statuses(200));
  const id = await submit(await project({ webhook_url: rx.url("/erp"), hmac_secret: SECRET }), invoice());
  await until(
    () => hitsAt("/erp"),
    (h) => h.length > 0,
    60_000,
  );
  const [hit] = hitsAt("/erp");
  const payload = verifySignatures(SECRET, hit!.headers, hit!.body) as any;
  expect(hit!.headers["content-type"]).toBe("application/json");
  expect(hit!.headers["user-agent"]).toBe("docproc-webhooks/1");
  expect(sortedKeys(payload) && sortedKeys(payload.exports) && !/":\s|,\s"/.test(hit!.body)).toBe(true);

  // step_reached fires when the run reaches the node (the last step here), so it may arrive before the final
  // status is committed: the transaction completes right after.
  const tx = (
    await until(
      () => api("GET", `/transactions/${id}?timeout=10`),
      (r) => r.json.status !== "processing",
      30_000,
    )
  ).json;
  expect(tx.status).toBe("completed");
  const manifest = (await api("GET", `/transactions/${id}/exports`)).json;
  const links = Object.values(manifest.profiles as Record<string, any>).flatMap((p) =>
    p.files.map((f: any) => ({
      download_url: `${server.base}/transactions/${id}/exports/download/${f.filename.split("/").map(encodeURIComponent).join("/")}`,
      filename: f.filename,
      output_format: p.output_format,
      profile_id: p.profile_id,
      profile_name: p.profile_name,
      size_bytes: f.size_bytes,
    })),
  );
  expect(links.length).toBeGreaterThan(0);
  expect(payload).toEqual({
    event: "transaction.step_reached",
    exports: {
      files: links,
      manifest_url: `${server.base}/transactions/${id}/exports`,
      total_files: manifest.total_files,
      total_size_bytes: manifest.total_size_bytes,
    },
    occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    project_id: tx.project_id,
    tenant_id: "default",
    transaction_id: id,
    transaction_name: "March invoices",
  });
  expect(hit!.body).not.toContain(KEY);

  // The receiver's own client and key, made through the admin API: download permission only.
  expect(
    (await api("POST", "/admin/clients", { client_id: "receiver", permissions: ["transaction.download_results"] }))
      .status,
  ).toBe(201);
  const own = (await api("POST", "/admin/clients/receiver/keys", { description: "webhook receiver" })).json
    .api_key as string;
  for (const f of payload.exports.files) {
    expect((await fetch(f.download_url)).status).toBe(401);
    const res = await fetch(f.download_url, { headers: { "x-api-key": own } });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(f.size_bytes);
  }
  const log = (await api("GET", `/transactions/${id}/deliveries`)).json.deliveries;
  expect(log).toHaveLength(1);
  expect(log[0]).toMatchObject({
    delivery_id: hit!.headers["webhook-id"],
    state: "succeeded",
    attempts: 1,
    node_id: "erp",
  });
}, 90_000);

test("a transaction that fails (corrupt-only upload) sends transaction.failed with its error and empty exports", async () => {
  rx.reply(statuses(204));
  const corrupt = new File([new TextEncoder().encode("%PDF-1.7 this is not really a PDF")], "broken.pdf", {
    type: "application/pdf",
  });
  const id = await submit(await project({ webhook_url: rx.url("/failed"), hmac_secret: SECRET }), corrupt);
  await until(
    () => hitsAt("/failed"),
    (h) => h.length > 0,
    60_000,
  );
  const [hit] = hitsAt("/failed");
  const payload = verifySignatures(SECRET, hit!.headers, hit!.body) as any;
  const tx = (await api("GET", `/transactions/${id}`)).json;
  expect(tx.status).toBe("failed");
  expect(payload).toEqual({
    error: tx.error_message,
    event: "transaction.failed",
    exports: {},
    occurred_at: expect.any(String),
    project_id: tx.project_id,
    tenant_id: "default",
    transaction_id: id,
    transaction_name: "March invoices",
  });
}, 90_000);

test("a server killed (SIGKILL) between two attempts sends the retry after its restart", async () => {
  rx.reply(inOrder(500, 200));
  // A backoff of several seconds: the kill must land while the retry waits, not while it is in flight (a retry the
  // receiver saw but the killed server never recorded is sent again after the restart: at-least-once, a third hit).
  const id = await submit(await project({ webhook_url: rx.url("/durable"), retry_backoff_seconds: 4 }), invoice());
  const log = () => api("GET", `/transactions/${id}/deliveries`);
  await until(log, (r) => r.json.deliveries[0]?.state === "retrying", 60_000);
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  expect(hitsAt("/durable")).toHaveLength(1);
  await serve();
  const done = await until(log, (r) => r.json.deliveries[0]?.state === "succeeded", 30_000);
  expect(done.json.deliveries[0].attempt_log.map((a: any) => a.status)).toEqual([500, 200]);
  const hits = hitsAt("/durable");
  expect(hits).toHaveLength(2);
  expect(hits[1]!.headers["webhook-id"]).toBe(hits[0]!.headers["webhook-id"]);
  expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(4000);
}, 90_000);

test("docproc deliveries list / redeliver work on the server's data directory", async () => {
  rx.reply(statuses(200));
  const id = await submit(await project({ webhook_url: rx.url("/cli-log") }), invoice());
  await until(
    () => hitsAt("/cli-log"),
    (h) => h.length > 0,
    60_000,
  );
  const cli = (...args: string[]) => runCli(["deliveries", ...args, "--data", dir], { env });
  const listed = await cli("list", id, "--json");
  expect(listed.code).toBe(0);
  const [d] = JSON.parse(listed.stdout).deliveries;
  expect(d).toMatchObject({
    state: "succeeded",
    attempts: 1,
    delivery_id: hitsAt("/cli-log")[0]!.headers["webhook-id"],
  });
  const table = await cli("list", id);
  expect(table.stdout).toContain(d.delivery_id);
  expect(table.stdout).toContain("Attempts:");

  const again = await cli("redeliver", d.delivery_id, "--json");
  expect(again.code).toBe(0);
  const view = JSON.parse(again.stdout);
  expect(view).toMatchObject({ state: "succeeded", redelivery_of: d.delivery_id });
  expect(hitsAt("/cli-log").map((h) => h.headers["webhook-id"])).toEqual([d.delivery_id, view.delivery_id]);
  expect((await cli("redeliver", "msg_unknown")).code).toBe(2);
}, 90_000);

test("a server killed (SIGKILL) during an attempt sends it again after its restart, with the same webhook-id", async () => {
  let n = 0;
  rx.reply(() =>
    ++n === 1
      ? new Promise<Response>((r) => setTimeout(() => r(new Response("too late")), 15_000))
      : new Response("ok"),
  );
  const id = await submit(await project({ webhook_url: rx.url("/inflight"), timeout_seconds: 20 }), invoice());
  await until(
    () => hitsAt("/inflight"),
    (h) => h.length === 1,
    60_000,
  );
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  await serve();
  const log = () => api("GET", `/transactions/${id}/deliveries`);
  const done = await until(log, (r) => r.json.deliveries[0]?.state === "succeeded", 30_000);
  // The killed attempt was never recorded: the log shows one attempt, the receiver saw two with one webhook-id.
  expect(done.json.deliveries[0].attempt_log.map((a: any) => [a.attempt, a.status])).toEqual([[1, 200]]);
  const hits = hitsAt("/inflight");
  expect(hits).toHaveLength(2);
  expect(hits[1]!.headers["webhook-id"]).toBe(hits[0]!.headers["webhook-id"]);
}, 90_000);
