import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DocprocError } from "../../../src/core/errors.ts";
import type { ExportManifest } from "../../../src/core/exporters/run.ts";
import { NotificationActivitySchema, parseNotificationActivity } from "../../../src/core/project/notify.ts";
import {
  buildFailedPayload,
  downloadUrl,
  linkBase,
  type ExportManifestLike,
} from "../../../src/core/notify/payload.ts";
import { parseRetryAfter } from "../../../src/core/notify/deliver.ts";
import { planNextAttempt } from "../../../src/core/notify/retry.ts";
import { canonicalJson } from "../../../src/core/notify/sign.ts";
import {
  deliveryFailure,
  nodesByOutcome,
  notificationNodes,
  planNotifications,
  planTransactionNotifications,
  runDeliveries,
} from "../../../src/core/stages/notify/index.ts";
import { startReceiver, statuses, type Receiver } from "./receiver.ts";

// The exporters' manifest type MUST be accepted where the payload builder expects a manifest (checked by tsc).
const manifestTypeFits = (m: ExportManifest): ExportManifestLike => m;
void manifestTypeFits;

const ALLOW = { allowPrivate: ["127.0.0.1/32"] };
const tx = { tenant_id: "t1", project_id: "p1", transaction_id: "tx-9", transaction_name: null };
const manifest: ExportManifestLike = {
  transaction_id: "tx-9",
  profiles: {
    json: {
      profile_id: "json",
      profile_name: "JSON",
      output_format: "json",
      files: [{ filename: "tx-9_data.json", size_bytes: 10 }],
    },
  },
  total_files: 1,
  total_size_bytes: 10,
};

let rx: Receiver;
beforeAll(() => (rx = startReceiver()));
afterAll(() => rx.stop());

describe("activity configuration", () => {
  test("fills every default of the spec table from webhook_url alone", () => {
    expect(parseNotificationActivity({ webhook_url: "https://hooks.example.com/x" })).toEqual({
      webhook_url: "https://hooks.example.com/x",
      events: ["reached", "failed"],
      event_name: null,
      http_method: "POST",
      custom_headers: {},
      hmac_secret: null,
      timeout_seconds: 15,
      retry_max_attempts: 3,
      retry_backoff_seconds: 2.0,
      api_base_url: null,
      fail_workflow_on_error: false,
    });
  });

  test("lists every problem at once: missing URL, bad method, reserved header, unknown key", () => {
    const parsed = NotificationActivitySchema.safeParse({
      http_method: "GET",
      custom_headers: { "Webhook-Signature": "x" },
      retries: 2,
    });
    expect(parsed.success).toBe(false);
    expect(() =>
      parseNotificationActivity({ http_method: "GET", custom_headers: { "Webhook-Signature": "x" }, retries: 2 }),
    ).toThrow(/webhook_url.*http_method.*Webhook-Signature.*retries/s);
    expect(() => parseNotificationActivity({ webhook_url: "ftp://x/" })).toThrow(DocprocError);
    expect(() => parseNotificationActivity({ webhook_url: "https://x/", retry_max_attempts: 0 })).toThrow(
      /retry_max_attempts/,
    );
  });
});

describe("retry plan (pure, fake clock)", () => {
  const defaults = parseNotificationActivity({ webhook_url: "https://x.example/" });
  const now = new Date("2026-01-01T00:00:00Z");
  const fail = (status: number, extra = {}) => ({
    ok: false,
    status,
    retryable: status === 429 || status >= 500,
    ...extra,
  });

  test("doubles from retry_backoff_seconds: 2 s then 4 s, then gives up after 3 attempts", () => {
    expect(planNextAttempt(1, fail(500), defaults, now)).toEqual({
      action: "retry",
      next_attempt: 2,
      delay_seconds: 2,
      run_at: "2026-01-01T00:00:02.000Z",
    });
    expect(planNextAttempt(2, fail(502), defaults, now)).toMatchObject({
      action: "retry",
      next_attempt: 3,
      delay_seconds: 4,
    });
    expect(planNextAttempt(3, fail(500), defaults, now)).toEqual({
      action: "give_up",
      reason: "HTTP 500 after 3 attempt(s)",
    });
  });

  test("retry_max_attempts 1 means no retry; 4xx ends at once; success ends", () => {
    expect(planNextAttempt(1, fail(500), { ...defaults, retry_max_attempts: 1 }, now).action).toBe("give_up");
    expect(planNextAttempt(1, fail(404), defaults, now)).toEqual({
      action: "give_up",
      reason: "HTTP 404 (not retryable)",
    });
    expect(planNextAttempt(1, { ok: true, status: 200, retryable: false }, defaults, now)).toEqual({
      action: "succeeded",
    });
  });

  test("Retry-After raises the delay but never lowers it, and is capped", () => {
    expect(planNextAttempt(1, fail(429, { retry_after_seconds: 30 }), defaults, now)).toMatchObject({
      delay_seconds: 30,
    });
    expect(planNextAttempt(2, fail(429, { retry_after_seconds: 1 }), defaults, now)).toMatchObject({
      delay_seconds: 4,
    });
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("999999", now)).toBe(600);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});

describe("payload details", () => {
  test("transaction.failed carries error and an empty exports object, and no credentials", () => {
    const p = buildFailedPayload({
      transaction: tx,
      error: "OCR failed on page 3",
      occurredAt: new Date("2026-01-02T03:04:05Z"),
    });
    expect(p).toEqual({
      event: "transaction.failed",
      tenant_id: "t1",
      project_id: "p1",
      transaction_id: "tx-9",
      transaction_name: null,
      occurred_at: "2026-01-02T03:04:05.000Z",
      error: "OCR failed on page 3",
      exports: {},
    });
  });

  test("links need api_base_url or the public URL; filenames are encoded per segment", () => {
    expect(() => linkBase(null, null)).toThrow(/api_base_url/);
    expect(linkBase(null, "http://docproc.local:8080/")).toBe("http://docproc.local:8080");
    expect(downloadUrl("https://h", "a b", "x/../y?#.pdf")).toBe(
      "https://h/transactions/a%20b/exports/download/x/../y%3F%23.pdf",
    );
  });

  test("canonical JSON sorts keys recursively and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });
});

describe("notify stage", () => {
  const workflow = [
    { type: "split" },
    {
      type: "notification",
      id: "early",
      activity: parseNotificationActivity({ webhook_url: "https://a.example/", api_base_url: "https://api.example" }),
    },
    { type: "extract" },
    { type: "export" },
    {
      type: "notification",
      id: "off",
      enabled: false,
      activity: parseNotificationActivity({ webhook_url: "https://b.example/" }),
    },
    {
      type: "notification",
      id: "final",
      activity: parseNotificationActivity({ webhook_url: "https://c.example/", events: ["failed"] }),
    },
    { type: "notification", id: "unset", activity: null },
  ];

  test("finds enabled, configured nodes and splits them by how far the workflow got", () => {
    const nodes = notificationNodes(workflow);
    expect(nodes.map((n) => n.id)).toEqual(["early", "final"]);
    expect(nodesByOutcome(nodes, workflow, null).reached.map((n) => n.id)).toEqual(["early", "final"]);
    const failedAtExtract = nodesByOutcome(nodes, workflow, "extract");
    expect(failedAtExtract.reached.map((n) => n.id)).toEqual(["early"]);
    expect(failedAtExtract.notReached.map((n) => n.id)).toEqual(["final"]);
    expect(nodesByOutcome(nodes, workflow, "ocr").notReached.map((n) => n.id)).toEqual(["early", "final"]);
  });

  test("plans deliveries per the events setting, with the event_name override and deterministic ids", () => {
    const nodes = notificationNodes(workflow);
    const reached = planNotifications({
      activities: nodes,
      transaction: tx,
      trigger: { event: "reached", manifest },
      newId: (i, e) => `msg_${i}_${e}`,
    });
    expect(reached.deliveries.map((d) => [d.node_id, d.event, d.request.delivery_id])).toEqual([
      ["early", "reached", "msg_0_reached"],
    ]);
    expect(reached.deliveries[0].payload).toMatchObject({
      event: "transaction.step_reached",
      exports: { manifest_url: "https://api.example/transactions/tx-9/exports" },
    });
    const failed = planNotifications({
      activities: nodes,
      transaction: tx,
      trigger: { event: "failed", error: "boom" },
    });
    expect(failed.deliveries.map((d) => d.node_id)).toEqual(["early", "final"]);
    expect(failed.deliveries.every((d) => d.payload.event === "transaction.failed")).toBe(true);
  });

  test("a whole transaction: completion fires reached everywhere; failure splits reached and failed by position", () => {
    const withLinks = workflow.map((s) =>
      s.activity
        ? {
            ...s,
            activity: {
              ...s.activity,
              api_base_url: "https://api.example",
              events: ["reached", "failed"] as Array<"reached" | "failed">,
            },
          }
        : s,
    );
    const ids = (i: number, e: string) => `msg_${i}_${e}`;
    const done = planTransactionNotifications({
      workflow: withLinks,
      transaction: tx,
      outcome: { status: "completed", manifest },
      newId: ids,
    });
    expect(done.deliveries.map((d) => [d.node_id, d.payload.event, d.request.delivery_id])).toEqual([
      ["early", "transaction.step_reached", "msg_0_reached"],
      ["final", "transaction.step_reached", "msg_1_reached"],
    ]);
    const failed = planTransactionNotifications({
      workflow: withLinks,
      transaction: tx,
      outcome: { status: "failed", error: "extract crashed", failedStage: "extract" },
      newId: ids,
    });
    expect(failed.deliveries.map((d) => [d.node_id, d.payload.event, d.activity_index, d.request.delivery_id])).toEqual(
      [
        ["early", "transaction.step_reached", 0, "msg_0_reached"],
        ["final", "transaction.failed", 1, "msg_1_failed"],
      ],
    );
    expect(failed.deliveries[0].payload).toMatchObject({ exports: { total_files: 0, files: [] } }); // Export had not run
    const unknown = planTransactionNotifications({
      workflow: withLinks,
      transaction: tx,
      outcome: { status: "failed", error: "x", failedStage: null },
    });
    expect(unknown.deliveries.map((d) => d.payload.event)).toEqual(["transaction.failed", "transaction.failed"]);
  });

  test("an activity without any link base is a warning and does not stop the others", () => {
    const noBase = parseNotificationActivity({ webhook_url: "https://a.example/" });
    const withBase = parseNotificationActivity({
      webhook_url: "https://b.example/",
      api_base_url: "https://api.example",
      event_name: "ready",
    });
    const plan = planNotifications({
      activities: [noBase, withBase],
      transaction: tx,
      trigger: { event: "reached", manifest },
    });
    expect(plan.deliveries.map((d) => d.activity_index)).toEqual([1]);
    expect(plan.deliveries[0].payload.event).toBe("ready");
    expect(plan.warnings[0]).toMatch(/notification 1: .*api_base_url/);
    const asNode = planNotifications({
      activities: [{ step_index: 4, id: "erp", name: null, activity: noBase }],
      transaction: tx,
      trigger: { event: "reached", manifest },
    });
    expect(asNode.warnings[0]).toMatch(/notification "erp": /);
    expect(
      planNotifications({
        activities: [noBase],
        transaction: tx,
        trigger: { event: "reached", manifest },
        publicBaseUrl: "https://pub.example",
      }).deliveries,
    ).toHaveLength(1);
  });

  test("a failing transaction sends transaction.failed to a real receiver", async () => {
    rx.received.length = 0;
    rx.reply(statuses(200));
    const activity = parseNotificationActivity({ webhook_url: rx.url() });
    const plan = planNotifications({
      activities: [activity],
      transaction: tx,
      trigger: { event: "failed", error: "corrupt_file: not a PDF" },
    });
    const run = await runDeliveries(plan.deliveries, ALLOW);
    expect(run.failWorkflow).toBeNull();
    expect(JSON.parse(rx.received[0].body)).toMatchObject({
      event: "transaction.failed",
      error: "corrupt_file: not a PDF",
      exports: {},
    });
    expect(rx.received[0].headers["webhook-id"]).toBe(plan.deliveries[0].request.delivery_id);
  });

  test("fail_workflow_on_error turns a finally failed delivery into a delivery_failed error; the default only logs it", async () => {
    rx.received.length = 0;
    rx.reply(statuses(500));
    const strict = parseNotificationActivity({
      webhook_url: rx.url(),
      api_base_url: "https://api.example",
      retry_max_attempts: 2,
      retry_backoff_seconds: 0.01,
      fail_workflow_on_error: true,
    });
    const lenient = { ...strict, fail_workflow_on_error: false };
    const plan = planNotifications({
      activities: [lenient, strict],
      transaction: tx,
      trigger: { event: "reached", manifest },
    });
    const run = await runDeliveries(plan.deliveries, ALLOW);
    expect(rx.received).toHaveLength(4);
    expect(run.results.map((r) => r.result.ok)).toEqual([false, false]);
    expect(deliveryFailure(plan.deliveries[0], run.results[0].result)).toBeNull();
    expect(run.failWorkflow).toBeInstanceOf(DocprocError);
    expect(run.failWorkflow).toMatchObject({ code: "delivery_failed", stage: "notify" });
    expect(run.failWorkflow!.message).toMatch(/notification 2 \(reached\) failed after 2 attempt\(s\): HTTP 500/);
    rx.reply(statuses(200));
  });
});
