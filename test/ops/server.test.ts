/**
 * Operating the server: the access log (fields, route templates, no secrets), GET /metrics (protected, parses as
 * Prometheus text, counters move), the first-run page, and links behind a trusted proxy.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { queueCounts } from "../../src/storage/jobs/jobs";
import { notePublicBase, parseTrustProxy, publicBaseOf } from "../../src/server/proxy";
import { buildTestApp } from "../support/app";
import { requestInit } from "../support/http";
import { parseMetrics, sample, telemetryFor } from "./helpers";

const ADMIN = "ops-admin-key-7f3a";
const METRICS_TOKEN = "scrape-token-91c2";
let t: ReturnType<typeof buildTestApp> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function setup(config: Record<string, unknown> = {}, auth: Record<string, unknown> = {}) {
  let db: any;
  const tel = telemetryFor(() => queueCounts(db));
  t = buildTestApp({
    adminKey: ADMIN,
    prefix: "ops",
    telemetry: tel.telemetry,
    config: { metricsToken: METRICS_TOKEN, ...config },
    auth,
  });
  db = t.data.db;
  const call = async (
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = { "x-api-key": ADMIN },
  ) => {
    const res = await t!.app.handle(new Request(`http://local${url}`, requestInit(method, headers, body)));
    const text = await res.text();
    // The access log and the request metrics are written just after the response (Elysia's after-response hook).
    await new Promise((r) => setImmediate(r));
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, json, text, res };
  };
  const metrics = async () => {
    const r = await call("GET", "/metrics", undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(r.status).toBe(200);
    return Object.assign(parseMetrics(r.text), { text: r.text });
  };
  return { ...tel, call, metrics };
}

describe("access log", () => {
  test("one line per request with method, route template, status, duration and key id; no key, token, query or body", async () => {
    const s = setup();
    const project = (await s.call("POST", "/tenants/default/projects", { name: "Ops" })).json.project_id;
    await s.call("POST", "/admin/clients", {
      client_id: "erp",
      name: "ERP",
      tenant_id: "default",
      permissions: ["transaction.read", "transaction.create"],
    });
    const key = (await s.call("POST", "/admin/clients/erp/keys", { description: "prod" })).json;
    const tx = (
      await s.call(
        "POST",
        `/tenants/default/projects/${project}/transactions`,
        { metadata: { secret_note: "confidential-value-55" } },
        { "x-api-key": key.api_key },
      )
    ).json.transaction_id;
    expect(tx).toBeString();
    await s.call("GET", `/transactions/${tx}?fields=status&search=private-query-88`, undefined, {
      "x-api-key": key.api_key,
    });
    await s.call("GET", "/transactions", undefined, { "x-api-key": "dp_live_wrong-key-value-0000" });
    await s.call("GET", "/no/such/route");

    const lines = s.lines().filter((l) => l.event === "http_request");
    const get = lines.find((l) => l.route === "/transactions/:transaction_id");
    expect(get).toMatchObject({
      level: "info",
      method: "GET",
      status: 200,
      principal: "api_key",
      key_id: key.key_id,
      tenant_id: "default",
    });
    expect(get!.duration_ms).toBeNumber();
    expect(typeof get!.time).toBe("string");
    expect(lines.find((l) => l.route === "/tenants/:tenant_id/projects/:project_id/transactions")).toMatchObject({
      method: "POST",
      status: 201,
      key_id: key.key_id,
    });
    // Refused before routing: still logged, with its template and no principal.
    expect(lines.find((l) => l.status === 401)).toMatchObject({ route: "/transactions", principal: "anonymous" });
    expect(lines.find((l) => l.status === 404)).toMatchObject({ route: "(unmatched)" });
    expect(lines.length).toBe(7);
    const text = s.text();
    for (const secret of [
      ADMIN,
      key.api_key,
      "dp_live_wrong-key-value-0000",
      "private-query-88",
      "confidential-value-55",
      tx,
    ])
      expect(text).not.toContain(secret);
  });
});

describe("GET /metrics", () => {
  test("needs the admin key or the metrics token; a client key is refused", async () => {
    const s = setup();
    expect((await s.call("GET", "/metrics", undefined, {})).status).toBe(401);
    expect((await s.call("GET", "/metrics", undefined, { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await s.call("GET", "/metrics", undefined, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    expect((await s.call("GET", "/metrics", undefined, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    const ok = await s.call("GET", "/metrics", undefined, { "x-api-key": ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.res.headers.get("content-type")).toContain("text/plain");
    await s.call("POST", "/admin/clients", {
      client_id: "c",
      name: "C",
      tenant_id: "default",
      permissions: ["transaction.read"],
    });
    const key = (await s.call("POST", "/admin/clients/c/keys", {})).json.api_key;
    expect((await s.call("GET", "/metrics", undefined, { "x-api-key": key })).status).toBe(401);
  });

  test("parses as Prometheus text; request, queue and rate-limit figures move", async () => {
    const s = setup({}, { ratePerMinute: 3 });
    const before = await s.metrics();
    expect(sample(before, "docproc_http_requests_total", { route: "/health", status: "200" })).toBe(0);
    for (let i = 0; i < 3; i++) expect((await s.call("GET", "/health", undefined, {})).status).toBe(200);
    const project = (await s.call("POST", "/tenants/default/projects", { name: "M" })).json.project_id;
    const sub = await s.call("POST", `/tenants/default/projects/${project}/transactions/process`, {
      documentText: "Invoice 1\nTotal 10.00",
    });
    expect(sub.status).toBe(202);
    // A client key limited to 3 requests a minute: the 4th is refused.
    await s.call("POST", "/admin/clients", {
      client_id: "r",
      name: "R",
      tenant_id: "default",
      permissions: ["transaction.read"],
    });
    const key = (await s.call("POST", "/admin/clients/r/keys", {})).json.api_key;
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await s.call("GET", "/transactions", undefined, { "x-api-key": key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const after = await s.metrics();
    expect(sample(after, "docproc_http_requests_total", { method: "GET", route: "/health", status: "200" })).toBe(3);
    expect(
      sample(after, "docproc_http_requests_total", {
        method: "POST",
        route: "/tenants/:tenant_id/projects/:project_id/transactions/process",
        status: "202",
      }),
    ).toBe(1);
    expect(sample(after, "docproc_http_requests_total", { route: "/transactions", status: "429" })).toBe(1);
    expect(sample(after, "docproc_rate_limit_rejections_total", { limit: "requests" })).toBe(1);
    // No worker runs here: the submitted job waits in the queue.
    expect(sample(after, "docproc_queue_jobs", { kind: "process_transaction", status: "queued" })).toBe(1);
    expect(after.find((f) => f.name === "docproc_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
    // The parser folds labelled histograms together; the per-route count is read from the text itself.
    expect(after.text).toContain('docproc_http_request_duration_seconds_count{method="GET",route="/health"} 3');
  });
});

describe("first run", () => {
  test("GET / is a public page with the version and relative links; JSON on request", async () => {
    const s = setup();
    const r = await s.call("GET", "/", undefined, {});
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toContain("text/html");
    const { version } = (await s.call("GET", "/health", undefined, {})).json;
    expect(r.text).toContain(`version ${version}`);
    for (const href of ["api-docs", "docs", "review", "health"]) expect(r.text).toContain(`href="${href}"`);
    expect(r.text).not.toMatch(/(href|src)="\//);
    const j = await s.call("GET", "/", undefined, { accept: "application/json" });
    expect(j.json).toMatchObject({ name: "docproc", version });
  });
});

describe("behind a proxy", () => {
  const forwarded = {
    "x-forwarded-proto": "https",
    "x-forwarded-host": "docs.example.com",
    "x-forwarded-prefix": "/docproc/",
  };
  async function captureUrl(s: ReturnType<typeof setup>, headers: Record<string, string>) {
    const project = (await s.call("POST", "/tenants/default/projects", { name: "Cap" })).json.project_id;
    const r = await s.call(
      "POST",
      `/tenants/default/projects/${project}/capture-tokens`,
      {},
      { "x-api-key": ADMIN, ...headers },
    );
    expect(r.status).toBe(201);
    return r.json.capture_url as string;
  }

  test("trusted: the capture link is https:// on the forwarded host under the forwarded prefix", async () => {
    const s = setup({ trustProxy: parseTrustProxy("true") });
    expect(await captureUrl(s, forwarded)).toMatch(/^https:\/\/docs\.example\.com\/docproc\/capture#[\w-]+$/);
    const doc = JSON.parse((await s.call("GET", "/api-docs/openapi.json", undefined, forwarded)).text);
    expect(doc.servers).toEqual([{ url: "/docproc" }]);
    expect((await s.call("GET", "/api-docs", undefined, forwarded)).text).toContain(
      'src="/docproc/api-docs/explorer.js"',
    );
  });

  test("not trusted (the default, or a peer outside the proxy list): forwarded headers change nothing", async () => {
    const s = setup();
    expect(await captureUrl(s, forwarded)).toMatch(/^http:\/\/local\/capture#/);
    await t!.close();
    const s2 = setup({ trustProxy: parseTrustProxy("10.0.0.0/8, 192.168.1.5") });
    expect(await captureUrl(s2, forwarded)).toMatch(/^http:\/\/local\/capture#/);
  });

  test("DOCPROC_TRUST_PROXY values", () => {
    for (const off of [undefined, "", "0", "false", "off"]) expect(parseTrustProxy(off)).toBe(false);
    expect(parseTrustProxy("true")).toBe(true);
    expect(parseTrustProxy("10.0.0.1, fd00::/8")).toHaveLength(2);
    expect(() => parseTrustProxy("10.0.0.1, proxy.local")).toThrow(/DOCPROC_TRUST_PROXY/);
    expect(() => parseTrustProxy("10.0.0.0/33, proxy.local, ::1")).toThrow('cannot read "10.0.0.0/33,proxy.local"');
  });

  test("the TCP peer decides (proxy-addr): CIDRs, netmasks, names, IPv4-mapped peers", () => {
    const prefixFor = (trust: string, peer: string) => {
      const request = new Request("http://local/x", { headers: { "x-forwarded-prefix": "/p" } });
      notePublicBase(request, parseTrustProxy(trust), peer);
      return publicBaseOf(request).prefix;
    };
    const cases: Array<[string, string, string]> = [
      ["10.0.0.0/8, 192.168.1.5", "10.200.3.4", "/p"],
      ["10.0.0.0/8, 192.168.1.5", "::ffff:10.200.3.4", "/p"],
      ["10.0.0.0/8, 192.168.1.5", "192.168.1.5", "/p"],
      ["10.0.0.0/8, 192.168.1.5", "192.168.1.6", ""],
      ["10.0.0.0/8, 192.168.1.5", "11.0.0.1", ""],
      ["10.0.0.0/255.0.0.0", "10.9.9.9", "/p"],
      ["loopback", "127.0.0.1", "/p"],
      ["loopback", "::1", "/p"],
      ["loopback", "10.0.0.1", ""],
      ["fd00::/8", "fd12::1", "/p"],
      ["fd00::/8", "fe80::1", ""],
      ["127.0.0.1", "not an address", ""],
    ];
    expect(cases.map(([trust, peer]) => prefixFor(trust, peer))).toEqual(cases.map((c) => c[2]));
  });
});
