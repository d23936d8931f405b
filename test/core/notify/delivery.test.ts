import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { parseNotificationActivity, type NotificationActivity } from "../../../src/core/project/notify.ts";
import { buildDeliveryRequest, deliverOnce } from "../../../src/core/notify/deliver.ts";
import { buildReachedPayload, type ExportManifestLike } from "../../../src/core/notify/payload.ts";
import { deliverWithRetries } from "../../../src/core/notify/retry.ts";
import { canonicalJson, standardWebhooksSecretFor } from "../../../src/core/notify/sign.ts";
import { startReceiver, statuses, type Receiver } from "./receiver.ts";

const ALLOW = { allowPrivate: ["127.0.0.1/32"] };
const SECRET = "s3cret-Schlüssel"; // non-ASCII on purpose: the key is the UTF-8 bytes

const manifest: ExportManifestLike = {
  transaction_id: "tx-1",
  profiles: {
    json_default: {
      profile_id: "json_default",
      profile_name: "JSON",
      output_format: "json",
      scope_mode: "per_transaction",
      files: [
        {
          filename: "tx-1_data.json",
          path: "exports/tx-1_data.json",
          size_bytes: 120,
          document_ids: [],
          created_at: "2026-01-01T00:00:00.000Z",
        },
      ],
    },
    csv_docs: {
      profile_id: "csv_docs",
      profile_name: "CSV per document",
      output_format: "csv",
      scope_mode: "per_document",
      files: [
        {
          filename: "invoices/Rechnung 1#ä.csv",
          path: "exports/invoices/Rechnung 1#ä.csv",
          size_bytes: 30,
          document_ids: ["d1"],
          created_at: "2026-01-01T00:00:00.000Z",
        },
      ],
    },
    broken_pdf: {
      profile_id: "broken_pdf",
      profile_name: "PDF",
      output_format: "pdf",
      files: [],
      error: "render failed",
    },
  },
  total_files: 2,
  total_size_bytes: 150,
};
const tx = { tenant_id: "t1", project_id: "p1", transaction_id: "tx-1", transaction_name: "March invoices" };
const occurredAt = new Date("2026-03-01T10:00:00.000Z");

let rx: Receiver;
beforeAll(() => (rx = startReceiver()));
afterAll(() => rx.stop());

function activity(extra: Record<string, unknown> = {}): NotificationActivity {
  return parseNotificationActivity({ webhook_url: rx.url(), api_base_url: "https://docs.example.com/api/", ...extra });
}

function payload(a: NotificationActivity) {
  return buildReachedPayload({
    transaction: tx,
    manifest,
    eventName: a.event_name,
    apiBaseUrl: a.api_base_url,
    occurredAt,
  });
}

async function sendOnce(a: NotificationActivity) {
  rx.received.length = 0;
  const outcome = await deliverOnce(buildDeliveryRequest(a, payload(a), "msg_test"), ALLOW);
  return { outcome, got: rx.received[0] };
}

describe("webhook delivery to a real receiver", () => {
  test("sends the spec payload field by field, compact with sorted keys", async () => {
    rx.reply(statuses(200));
    const { outcome, got } = await sendOnce(activity());
    expect(outcome).toMatchObject({ ok: true, kind: "success", status: 200, address: "127.0.0.1" });
    expect(got.method).toBe("POST");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(got.body)).toEqual({
      event: "transaction.step_reached",
      tenant_id: "t1",
      project_id: "p1",
      transaction_id: "tx-1",
      transaction_name: "March invoices",
      occurred_at: "2026-03-01T10:00:00.000Z",
      exports: {
        manifest_url: "https://docs.example.com/api/transactions/tx-1/exports",
        total_files: 2,
        total_size_bytes: 150,
        files: [
          {
            profile_id: "json_default",
            profile_name: "JSON",
            output_format: "json",
            filename: "tx-1_data.json",
            size_bytes: 120,
            download_url: "https://docs.example.com/api/transactions/tx-1/exports/download/tx-1_data.json",
          },
          {
            profile_id: "csv_docs",
            profile_name: "CSV per document",
            output_format: "csv",
            filename: "invoices/Rechnung 1#ä.csv",
            size_bytes: 30,
            download_url:
              "https://docs.example.com/api/transactions/tx-1/exports/download/invoices/Rechnung%201%23%C3%A4.csv",
          },
        ],
      },
    });
    expect(got.body).toBe(canonicalJson(JSON.parse(got.body)));
    expect(got.body.indexOf('"event"')).toBeLessThan(got.body.indexOf('"exports"'));
    expect(got.body).not.toMatch(/": |, /);
    expect(got.headers["x-service-signature"]).toBeUndefined(); // no secret, no signature
  });

  test("X-Service-Signature is the HMAC-SHA256 hex of the exact body bytes (verified with node:crypto)", async () => {
    rx.reply(statuses(200));
    const { got } = await sendOnce(activity({ hmac_secret: SECRET }));
    const expected = createHmac("sha256", Buffer.from(SECRET, "utf8"))
      .update(Buffer.from(got.body, "utf8"))
      .digest("hex");
    expect(got.headers["x-service-signature"]).toBe(`sha256=${expected}`);
    const forged = createHmac("sha256", "other").update(got.body).digest("hex");
    expect(got.headers["x-service-signature"]).not.toBe(`sha256=${forged}`);
  });

  test("Standard Webhooks headers verify with the standardwebhooks package, tampering does not", async () => {
    rx.reply(statuses(200));
    const { got } = await sendOnce(activity({ hmac_secret: SECRET }));
    expect(got.headers["webhook-id"]).toBe("msg_test");
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    const wh = new Webhook(`whsec_${Buffer.from(SECRET, "utf8").toString("base64")}`);
    expect(wh.verify(got.body, got.headers)).toEqual(JSON.parse(got.body));
    expect(standardWebhooksSecretFor(SECRET)).toBe(`whsec_${Buffer.from(SECRET, "utf8").toString("base64")}`);
    expect(() => wh.verify(got.body.replace("t1", "t2"), got.headers)).toThrow();
    expect(() =>
      wh.verify(got.body, { ...got.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3600) }),
    ).toThrow();
  });

  test("a whsec_ secret works in the standardwebhooks package as-is", async () => {
    const whsec = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    rx.reply(statuses(200));
    const { got } = await sendOnce(activity({ hmac_secret: whsec }));
    expect(new Webhook(whsec).verify(got.body, got.headers)).toMatchObject({ transaction_id: "tx-1" });
  });

  test("PUT, event_name override and custom headers; custom headers cannot replace signature or content type", async () => {
    rx.reply(statuses(204));
    const a = { ...activity({ http_method: "PUT", event_name: "docs.ready", hmac_secret: SECRET }) };
    // Bypass the schema (which rejects reserved names) to prove the sender enforces it too.
    a.custom_headers = {
      "X-Tenant": "acme",
      "X-Service-Signature": "sha256=forged",
      "content-type": "text/plain",
      "Webhook-Id": "x",
    };
    const { outcome, got } = await sendOnce(a);
    expect(outcome.ok).toBe(true);
    expect(got.method).toBe("PUT");
    expect(JSON.parse(got.body).event).toBe("docs.ready");
    expect(got.headers["x-tenant"]).toBe("acme");
    expect(got.headers["user-agent"]).toBe("docproc-webhooks/1");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-id"]).toBe("msg_test");
    expect(got.headers["x-service-signature"]).toBe(
      `sha256=${createHmac("sha256", SECRET).update(got.body).digest("hex")}`,
    );
  });
});

describe("retry policy against a real receiver", () => {
  test("500, 500, 200 gives three attempts with doubling delays and one webhook-id", async () => {
    rx.received.length = 0;
    rx.reply(statuses(500, 500, 200));
    const seen: number[] = [];
    const result = await deliverWithRetries(
      activity({ retry_backoff_seconds: 0.1, hmac_secret: SECRET }),
      payload(activity()),
      {
        ...ALLOW,
        onAttempt: (r) => seen.push(r.attempt),
      },
    );
    expect(result.ok).toBe(true);
    expect(result.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(seen).toEqual([1, 2, 3]);
    const [a, b, c] = rx.received;
    const gap1 = b.at - a.at;
    const gap2 = c.at - b.at;
    expect(gap1).toBeGreaterThanOrEqual(95);
    expect(gap1).toBeLessThan(400);
    expect(gap2).toBeGreaterThanOrEqual(195);
    expect(gap2).toBeLessThan(600);
    expect(new Set(rx.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
    console.log(`retry gaps measured: ${gap1.toFixed(0)} ms, ${gap2.toFixed(0)} ms (backoff 0.1 s)`);
  });

  test("with the default policy the waits are 2 s then 4 s (injected sleep, no real waiting)", async () => {
    rx.received.length = 0;
    rx.reply(statuses(500));
    const slept: number[] = [];
    const result = await deliverWithRetries(activity(), payload(activity()), {
      allow: ["127.0.0.1/32"],
      sleep: async (ms) => void slept.push(ms),
    });
    expect(slept).toEqual([2000, 4000]);
    expect(result.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(rx.received).toHaveLength(3);
    expect(result.error).toBe("HTTP 500 after 3 attempt(s)");
  });

  test("gives up after retry_max_attempts of 5xx", async () => {
    rx.received.length = 0;
    rx.reply(statuses(503));
    const result = await deliverWithRetries(
      activity({ retry_backoff_seconds: 0.01, retry_max_attempts: 2 }),
      payload(activity()),
      ALLOW,
    );
    expect(result.ok).toBe(false);
    expect(rx.received).toHaveLength(2);
    expect(result.error).toContain("after 2 attempt(s)");
  });

  test("404 ends the delivery after one attempt", async () => {
    rx.received.length = 0;
    rx.reply(statuses(404));
    const result = await deliverWithRetries(activity({ retry_backoff_seconds: 0.01 }), payload(activity()), ALLOW);
    expect(result.ok).toBe(false);
    expect(result.attempts).toHaveLength(1);
    expect(rx.received).toHaveLength(1);
    expect(result.attempts[0]).toMatchObject({ status: 404, retryable: false, kind: "http_status" });
  });

  test("429 with Retry-After waits at least that long before the next attempt", async () => {
    rx.received.length = 0;
    rx.reply(statuses([429, { "Retry-After": "1" }], 200));
    const result = await deliverWithRetries(activity({ retry_backoff_seconds: 0.01 }), payload(activity()), ALLOW);
    expect(result.ok).toBe(true);
    expect(result.attempts[0]).toMatchObject({ status: 429, retry_after_seconds: 1 });
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(990);
  });

  test("a receiver that hangs hits timeout_seconds, and the timeout is retried", async () => {
    rx.received.length = 0;
    rx.reply(() => new Promise<Response>((r) => setTimeout(() => r(new Response("late")), 3000)));
    const t0 = performance.now();
    const result = await deliverWithRetries(
      activity({ timeout_seconds: 0.3, retry_max_attempts: 2, retry_backoff_seconds: 0.01 }),
      payload(activity()),
      ALLOW,
    );
    const elapsed = performance.now() - t0;
    expect(result.ok).toBe(false);
    expect(result.attempts.map((a) => a.kind)).toEqual(["timeout", "timeout"]);
    expect(result.attempts[0].duration_ms).toBeGreaterThanOrEqual(290);
    expect(result.attempts[0].duration_ms).toBeLessThan(1000);
    expect(elapsed).toBeLessThan(2000);
    rx.reply(statuses(200));
  });

  test("a 2xx whose body trickles past the timeout still counts as delivered", async () => {
    rx.received.length = 0;
    rx.reply(() => {
      const body = new ReadableStream({
        start(ctrl) {
          ctrl.enqueue(new TextEncoder().encode("accepted, still talking"));
          // The client hangs up at its timeout, which closes the stream first; closing again would throw an
          // unhandled TypeError into whichever test runs two seconds later.
          setTimeout(() => {
            try {
              ctrl.close();
            } catch {}
          }, 2000);
        },
      });
      return new Response(body, { status: 202 });
    });
    const result = await deliverWithRetries(activity({ timeout_seconds: 0.3 }), payload(activity()), ALLOW);
    expect(result.ok).toBe(true);
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]).toMatchObject({ status: 202, kind: "success" });
    expect(result.attempts[0].duration_ms).toBeGreaterThanOrEqual(250); // ended by the timeout, not by the body
    expect(result.attempts[0].duration_ms).toBeLessThan(1000);
    expect(result.attempts[0].response_excerpt).toBe("accepted, still talking");
    rx.reply(statuses(200));
  });

  test("a 302 redirect to 127.0.0.1 is not followed and not retried", async () => {
    rx.received.length = 0;
    rx.reply((req) =>
      new URL(req.url).pathname === "/hook"
        ? new Response(null, { status: 302, headers: { Location: rx.url("/internal") } })
        : new Response("internal!"),
    );
    const result = await deliverWithRetries(activity({ retry_backoff_seconds: 0.01 }), payload(activity()), ALLOW);
    expect(result.ok).toBe(false);
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]).toMatchObject({ kind: "redirect", status: 302, retryable: false });
    expect(rx.received.map((r) => r.path)).toEqual(["/hook"]);
    rx.reply(statuses(200));
  });

  test("a refused connection is a retryable network failure recorded per attempt", async () => {
    const closed = startReceiver();
    const url = closed.url();
    closed.stop();
    const result = await deliverWithRetries(
      parseNotificationActivity({
        webhook_url: url,
        api_base_url: "https://x.example",
        retry_backoff_seconds: 0.01,
        retry_max_attempts: 2,
      }),
      payload(activity()),
      ALLOW,
    );
    expect(result.attempts.map((a) => [a.attempt, a.kind, a.retryable])).toEqual([
      [1, "network", true],
      [2, "network", true],
    ]);
    expect(result.attempts[0].error).toBeTruthy();
    expect(Date.parse(result.attempts[0].started_at)).toBeGreaterThan(0);
  });
});
