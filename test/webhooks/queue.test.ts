/**
 * Webhook deliveries through the durable queue: retries as rescheduled jobs, the delivery log endpoint, redelivery,
 * fail_workflow_on_error holding and failing the transaction, and the allow-list being off by default.
 * The server runs on a fake clock: a retry is sent when the test moves the clock past its backoff, never on wall
 * time, so the delays are asserted exactly and a loaded machine changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startReceiver, statuses, type Receiver } from "../core/notify/receiver";
import { planTransactionDeliveries } from "../../src/queue/deliveries";
import { queueCounts } from "../../src/storage/jobs/jobs";
import { fakeClock } from "../../src/core/clock";
import { inOrder, startHookServer, until, verifySignatures, type HookServer } from "./helpers";

// Starts at wall time: receivers check webhook-timestamp against their own clock (Standard Webhooks: ±5 min).
const clock = fakeClock(Date.now());
let s: HookServer;
let rx: Receiver;
beforeAll(async () => {
  s = await startHookServer({ clock });
  rx = startReceiver();
});
afterAll(async () => {
  rx.stop();
  await s.stop();
});

const ended = (r: { json: any }) =>
  r.json.deliveries.length > 0 && r.json.deliveries.every((d: any) => d.state === "succeeded" || d.state === "failed");
const status = async (id: string) => (await s.call("GET", `/transactions/${id}`)).json;
const hitsFor = (id: string) => rx.received.filter((r) => JSON.parse(r.body).transaction_id === id);
/** Waits until the delivery has made `attempts` attempts and waits for its next one. */
const retryingAfter = (id: string, attempts: number) =>
  until(
    () => s.deliveries(id),
    (r) => r.json.deliveries[0]?.state === "retrying" && r.json.deliveries[0]?.attempts === attempts,
  );
/** Webhook jobs queued or running, by status (none left: nothing more will be sent whatever the time). */
const deliveryJobs = () =>
  Object.fromEntries(
    queueCounts(s.db)
      .filter((c) => c.kind === "webhook_delivery")
      .map((c) => [c.status, c.n]),
  );

describe("webhook deliveries through the queue", () => {
  test("500, 500, 200: three attempts with doubling delays, each recorded in the delivery log", async () => {
    rx.reply(inOrder(500, 500, 200));
    const project = await s.project({
      webhook_url: rx.url("/retry"),
      hmac_secret: "s3cret",
      retry_backoff_seconds: 0.2,
    });
    const id = await s.submit(project);
    await retryingAfter(id, 1);
    await clock.tick(199);
    expect(deliveryJobs()).toEqual({ queued: 1 }); // the second attempt waits for its run_at
    expect(hitsFor(id)).toHaveLength(1);
    await clock.tick(1);
    await retryingAfter(id, 2);
    await clock.tick(399);
    expect(deliveryJobs()).toEqual({ queued: 1 });
    expect(hitsFor(id)).toHaveLength(2);
    await clock.tick(1);
    const log = await until(() => s.deliveries(id), ended);
    const [d] = log.json.deliveries;
    expect(d).toMatchObject({
      state: "succeeded",
      attempts: 3,
      event: "reached",
      event_name: "transaction.step_reached",
      node_id: "notify-1",
      url: rx.url("/retry"),
    });
    expect(d.attempt_log.map((a: any) => [a.attempt, a.status, a.kind])).toEqual([
      [1, 500, "http_status"],
      [2, 500, "http_status"],
      [3, 200, "success"],
    ]);
    expect(d.attempt_log[0].address).toBe("127.0.0.1");
    expect(JSON.stringify(log.json)).not.toContain("s3cret");
    const hits = hitsFor(id);
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers["webhook-id"]))).toEqual(new Set([d.delivery_id]));
    for (const h of hits) verifySignatures("s3cret", h.headers, h.body);
    // On the injected clock the backoff (0.2 s, then doubled) is exact: each attempt starts when it falls due.
    const started = d.attempt_log.map((a: any) => Date.parse(a.started_at));
    expect([started[1] - started[0], started[2] - started[1]]).toEqual([200, 400]);
    expect((await status(id)).status).toBe("completed");
  });

  test("404 ends the delivery after one attempt and leaves the transaction completed; redeliver sends it again", async () => {
    rx.reply(statuses(404));
    const project = await s.project({ webhook_url: rx.url("/gone"), retry_backoff_seconds: 0.05 });
    const id = await s.submit(project);
    const log = await until(() => s.deliveries(id), ended);
    const [d] = log.json.deliveries;
    expect(d).toMatchObject({ state: "failed", attempts: 1, last_error: "HTTP 404 (not retryable)" });
    expect(hitsFor(id)).toHaveLength(1);
    expect((await status(id)).status).toBe("completed");

    rx.reply(statuses(200));
    const again = await s.call("POST", `/transactions/${id}/deliveries/${d.delivery_id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ redelivery_of: d.delivery_id, state: "pending", fail_workflow_on_error: false });
    expect(again.json.delivery_id).not.toBe(d.delivery_id);
    const after = await until(
      () => s.deliveries(id),
      (r) => r.json.deliveries.length === 2 && ended(r),
    );
    expect(after.json.deliveries[1]).toMatchObject({
      delivery_id: again.json.delivery_id,
      state: "succeeded",
      attempts: 1,
    });
    const hits = hitsFor(id);
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers["webhook-id"]).toBe(again.json.delivery_id);
    expect(hits[1]!.body).toBe(hits[0]!.body);
    // Redelivering an unknown delivery, or one of another transaction, is a 404.
    expect((await s.call("POST", `/transactions/${id}/deliveries/msg_nope/redeliver`)).status).toBe(404);
  });

  test("Retry-After raises the delay; a redeliver while retrying is refused; the log hides query values", async () => {
    const project = await s.project({ webhook_url: rx.url("/later") + "?token=t0p", retry_backoff_seconds: 0.05 });
    rx.reply((req) =>
      new URL(req.url).pathname === "/later" && rx.received.filter((r) => r.path === "/later").length === 1
        ? new Response("busy", { status: 503, headers: { "retry-after": "1" } })
        : new Response("ok"),
    );
    const id = await s.submit(project);
    const retrying = await retryingAfter(id, 1);
    const d = retrying.json.deliveries[0];
    expect(d.url).toBe(rx.url("/later") + "?token=***");
    expect(d.attempt_log[0]).toMatchObject({ status: 503, retry_after_seconds: 1 });
    const early = await s.call("POST", `/transactions/${id}/deliveries/${d.delivery_id}/redeliver`);
    expect(early.status).toBe(400);
    expect(early.json.detail).toContain("still retrying");
    await clock.tick(999); // past the 0.05 s backoff, not yet past Retry-After
    expect(deliveryJobs()).toEqual({ queued: 1 });
    await clock.tick(1);
    const log = await until(() => s.deliveries(id), ended);
    const hits = rx.received.filter((r) => r.path === "/later" && JSON.parse(r.body).transaction_id === id);
    expect(hits).toHaveLength(2);
    const [first, second] = log.json.deliveries[0].attempt_log.map((a: any) => Date.parse(a.started_at));
    expect(second - first).toBe(1000);
  });

  test("a receiver that hangs is cut off at timeout_seconds", async () => {
    rx.reply(() => new Promise<Response>((r) => setTimeout(() => r(new Response("late")), 3000)));
    const project = await s.project({ webhook_url: rx.url("/slow"), timeout_seconds: 0.3, retry_max_attempts: 1 });
    const id = await s.submit(project);
    const log = await until(() => s.deliveries(id), ended);
    const a = log.json.deliveries[0].attempt_log[0];
    expect(a).toMatchObject({ kind: "timeout", status: null, error: "no response within 0.3s" });
    expect(a.duration_ms).toBeGreaterThanOrEqual(290);
    expect(a.duration_ms).toBeLessThan(2000);
    expect(log.json.deliveries[0].state).toBe("failed");
  });

  test("fail_workflow_on_error: the transaction waits in processing at notify, then fails with delivery_failed and sends no transaction.failed", async () => {
    rx.reply(statuses(503));
    const project = await s.project({
      webhook_url: rx.url("/strict"),
      fail_workflow_on_error: true,
      retry_max_attempts: 2,
      retry_backoff_seconds: 0.4,
    });
    const id = await s.submit(project);
    const held = await until(
      () => status(id),
      (t) => t.status === "processing" && t.metadata?.step_progress?.current_step === "notify",
    );
    expect(held.metadata.step_progress.current_step_name).toBe("Notification");
    await retryingAfter(id, 1);
    expect((await status(id)).status).toBe("processing"); // still held while the retry waits
    await clock.tick(400);
    const done = await until(
      () => status(id),
      (t) => t.status !== "processing",
    );
    expect(done.status).toBe("failed");
    expect(done.error_message).toContain("notification 1 (reached) failed after 2 attempt(s): HTTP 503");
    const hits = hitsFor(id);
    expect(hits).toHaveLength(2);
    expect(hits.every((h) => JSON.parse(h.body).event === "transaction.step_reached")).toBe(true);
    // No transaction.failed after the delivery failure: no delivery is planned and no job is left to send one.
    expect((await s.deliveries(id)).json.deliveries).toHaveLength(1);
    expect(deliveryJobs()).toEqual({});
    await clock.tick(60_000);
    expect(hitsFor(id)).toHaveLength(2);
  });

  test("fail_workflow_on_error: a successful delivery releases the transaction as completed", async () => {
    rx.reply(statuses(200));
    const project = await s.project(
      { webhook_url: rx.url("/ok"), fail_workflow_on_error: true },
      { webhook_url: rx.url("/also") },
    );
    const id = await s.submit(project);
    const done = await until(
      () => status(id),
      (t) => t.status === "completed" || t.status === "failed",
    );
    expect(done.status).toBe("completed");
    const log = (await s.deliveries(id)).json.deliveries;
    const strict = log.find((d: any) => d.fail_workflow_on_error);
    expect(strict.state).toBe("succeeded");
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(strict.completed_at));
  });

  test("planning the same finished transaction twice enqueues its deliveries once", async () => {
    rx.reply(statuses(200));
    const project = await s.project({ webhook_url: rx.url("/once") });
    const id = await s.submit(project);
    await until(() => s.deliveries(id), ended);
    const settings = { publicBaseUrl: () => s.base, allowPrivate: ["127.0.0.0/8"] };
    const again = s.db.transaction(() =>
      planTransactionDeliveries(
        s.db,
        clock,
        {
          transaction_id: id,
          status: "completed",
          manifest: { transaction_id: id, profiles: {}, total_files: 0, total_size_bytes: 0 },
        },
        settings,
      ),
    )();
    expect(again.enqueued).toBe(0);
    expect((await s.deliveries(id)).json.deliveries).toHaveLength(1);
  });
});

describe("delivery log access", () => {
  test("needs transaction.read and the transaction's tenant; redeliver needs transaction.create", async () => {
    rx.reply(statuses(200));
    const project = await s.project({ webhook_url: rx.url("/acl") });
    const id = await s.submit(project);
    const log = await until(() => s.deliveries(id), ended);
    const readOnly = await s.clientKey("reader", { permissions: ["transaction.read"] });
    const writeOnly = await s.clientKey("writer", { permissions: ["transaction.create"] });
    expect((await s.call("POST", "/admin/tenants", { tenant_id: "other" })).status).toBe(201);
    const stranger = await s.clientKey("stranger", { tenant_id: "other" });
    expect((await s.deliveries(id, readOnly)).status).toBe(200);
    expect((await s.deliveries(id, writeOnly)).status).toBe(403);
    expect((await s.deliveries(id, stranger)).status).toBe(404);
    const redeliver = `/transactions/${id}/deliveries/${log.json.deliveries[0].delivery_id}/redeliver`;
    expect((await s.call("POST", redeliver, undefined, readOnly)).status).toBe(403);
    expect((await s.call("POST", redeliver, undefined, stranger)).status).toBe(404);
    expect((await s.call("POST", redeliver, undefined, writeOnly)).status).toBe(202);
  });

  test("the OpenAPI document lists both delivery routes", async () => {
    const doc = (await s.call("GET", "/api-docs/openapi.json")).json;
    expect(Object.keys(doc.paths["/transactions/{transaction_id}/deliveries"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/transactions/{transaction_id}/deliveries/{delivery_id}/redeliver"])).toEqual([
      "post",
    ]);
  });
});

describe("allow-list off (the default)", () => {
  test("a loopback webhook_url is rejected before sending, and the delivery log says why", async () => {
    const strict = await startHookServer({ allow: false });
    try {
      const project = await strict.project({ webhook_url: rx.url("/blocked") });
      const id = await strict.submit(project);
      const log = await until(() => strict.deliveries(id), ended);
      const [d] = log.json.deliveries;
      expect(d).toMatchObject({ state: "failed", attempts: 1 });
      expect(d.attempt_log[0]).toMatchObject({ kind: "ssrf_blocked", status: null });
      expect(d.attempt_log[0].error).toContain("rejected");
      expect(d.attempt_log[0].error).toContain("loopback");
      expect(rx.received.filter((r) => r.path === "/blocked")).toHaveLength(0);
      expect((await strict.call("GET", `/transactions/${id}`)).json.status).toBe("completed");
    } finally {
      await strict.stop();
    }
  });
});
