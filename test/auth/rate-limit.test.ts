/** Rate limits over a real loopback port: the sync burst limit, headers, async limit, exemptions, restarts. */
import { afterEach, describe, expect, test } from "bun:test";
import { ADMIN, startAuthServer, type AuthServer } from "./helpers";

let s: AuthServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const MESSAGE = /^Rate limit exceeded: 600 requests per minute\. Try again in (\d+) seconds\.$/;

describe("sync limits", () => {
  test("700 requests in a minute with one key: exactly 600 succeed, the rest 429 with Retry-After and the message", async () => {
    s = await startAuthServer();
    const { key } = await s.clientWithKey("busy");
    const { key: other } = await s.clientWithKey("quiet");
    const started = Date.now();
    const replies = [];
    for (let i = 0; i < 700; i++) replies.push(await s.call("GET", "/transactions?limit=1", { "x-api-key": key }));
    expect(Date.now() - started).toBeLessThan(60_000);
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok.length).toBe(600);
    expect(limited.length).toBe(100);
    expect(replies.slice(0, 600).every((r) => r.status === 200)).toBe(true);
    // Headers count down one by one on the minute window (tighter than the hour window).
    expect(ok.map((r) => Number(r.headers.get("x-ratelimit-remaining")))).toEqual(
      Array.from({ length: 600 }, (_, i) => 599 - i),
    );
    const reset = Number(ok[0]!.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(started / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(started / 1000) + 61);
    for (const r of ok) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("600");
      expect(r.headers.get("x-ratelimit-window")).toBe("60");
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBe(reset);
    }
    for (const r of limited) {
      const retry = Number(r.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(r.json.detail).toMatch(MESSAGE);
      expect(Number(MESSAGE.exec(r.json.detail)![1])).toBe(retry);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(r.headers.get("x-ratelimit-limit")).toBe("600");
    }
    // A second key has its own budget.
    const second = await s.call("GET", "/transactions?limit=1", { "x-api-key": other });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("599");
    // Admin endpoints, the admin key and public paths are never limited (and carry no rate-limit headers).
    for (let i = 0; i < 50; i++) {
      const h = await s.call("GET", "/health");
      const a = await s.call("GET", "/admin/clients", { "x-admin-key": ADMIN });
      expect([h.status, a.status]).toEqual([200, 200]);
      expect(a.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect((await s.call("GET", "/api-docs/openapi.json")).status).toBe(200);
    expect((await s.call("GET", "/docs")).status).toBe(200);
    expect((await s.call("GET", "/auth/me", { "x-api-key": key })).status).toBe(429);
  }, 60_000);

  test("a per-client override replaces the default, and a refused request does not use up the hour", async () => {
    s = await startAuthServer();
    const { key } = await s.clientWithKey("small", { rate_limit_per_minute: 3, rate_limit_per_hour: 5 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await s.call("GET", "/auth/me", { "x-api-key": key })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Reloading writes the counters: both windows hold the 3 counted requests; the 2 refused ones used up nothing.
    expect((await s.admin("POST", "/admin/reload-configs")).json).toMatchObject({
      reloaded: true,
      clients: 1,
      active_api_keys: 1,
    });
    const counters = s.db
      .query(`SELECT "window", count FROM rate_limit_counters WHERE subject LIKE 'key:%' ORDER BY "window"`)
      .all();
    expect(counters).toEqual([
      { window: "hour", count: 3 },
      { window: "minute", count: 3 },
    ]);
  });
});

describe("async limits", () => {
  test("task submissions beyond the hourly limit answer 429 with the spec's body and headers", async () => {
    s = await startAuthServer({ auth: { asyncPerHour: 3 } });
    const admin = s.admin;
    const project = (await admin("POST", "/tenants/default/projects", { name: "P", description: "" })).json.project_id;
    const { key } = await s.clientWithKey("submitter");
    const submit = () =>
      s!.call(
        "POST",
        `/tenants/default/projects/${project}/transactions/process`,
        { "x-api-key": key },
        { documentText: "Invoice 7" },
      );
    const accepted = [await submit(), await submit(), await submit()];
    expect(accepted.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(accepted.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(accepted[0]!.headers.get("x-ratelimit-limit")).toBe("3");
    expect(accepted[0]!.headers.get("x-ratelimit-window")).toBe("3600");
    const refused = await submit();
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(refused.headers.get("x-ratelimit-reset"));
    expect(Math.abs(reset - (Date.now() / 1000 + retry))).toBeLessThan(3);
    expect(refused.json).toMatchObject({ error: "rate_limit_exceeded", retry_after: retry, limit: 3, window: "hour" });
    expect(refused.json.message).toBe(
      `Rate limit exceeded: 3 task submissions per hour. Try again in ${retry} seconds.`,
    );
    expect(Date.parse(refused.json.reset_at) / 1000).toBeCloseTo(reset, -1);
    // Other requests of the same key are still served (the sync budget is separate).
    const read = await s.call("GET", "/transactions", { "x-api-key": key });
    expect(read.status).toBe(200);
    expect(read.headers.get("x-ratelimit-limit")).toBe("600");
    // Creating a transaction is not a submission; starting it is.
    const created = await s.call("POST", `/tenants/default/projects/${project}/transactions`, { "x-api-key": key }, {});
    expect(created.status).toBe(201);
    expect(
      (await s.call("POST", `/transactions/${created.json.transaction_id}/start`, { "x-api-key": key }, {})).json.error,
    ).toBe("rate_limit_exceeded");
  });
});

describe("persistence", () => {
  test("counters survive a restart of the server on the same data directory", async () => {
    s = await startAuthServer();
    const { key } = await s.clientWithKey("steady");
    for (let i = 0; i < 10; i++) expect((await s.call("GET", "/auth/me", { "x-api-key": key })).status).toBe(200);
    const dir = s.dir;
    await s.stop({ keepDir: true });
    s = await startAuthServer({ dir });
    const after = await s.call("GET", "/auth/me", { "x-api-key": key });
    expect(after.headers.get("x-ratelimit-remaining")).toBe("589");
  });
});
