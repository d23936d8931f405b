/** Authentication, tenancy and permissions over a real loopback port. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { storedText } from "../support/postgres";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ADMIN, startAuthServer, type AuthServer } from "./helpers";

let s: AuthServer;
let acmeProject: string;
let acmeTx: string;

beforeAll(async () => {
  s = await startAuthServer();
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme", name: "Acme" })).status).toBe(201);
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "globex" })).status).toBe(201);
  acmeProject = (await s.admin("POST", "/tenants/acme/projects", { name: "Invoices", description: "" })).json
    .project_id;
  acmeTx = (await s.admin("POST", `/tenants/acme/projects/${acmeProject}/transactions`, {})).json.transaction_id;
});
afterAll(() => s.stop());

describe("credentials", () => {
  test("answers 401 without credentials, with an unknown key, and with a malformed one; /health stays public", async () => {
    const none = await s.call("GET", "/transactions");
    expect(none.status).toBe(401);
    expect(none.json.detail).toContain("X-API-Key");
    expect((await s.call("GET", "/transactions", { "x-api-key": "dp_live_" + "A".repeat(43) })).status).toBe(401);
    expect((await s.call("GET", "/transactions", { "x-api-key": "nonsense" })).json.detail).toBe("Invalid API key");
    expect((await s.call("GET", "/health")).status).toBe(200);
  });

  test("accepts the admin key in X-API-Key and in X-Admin-Key, and refuses a client key on admin endpoints", async () => {
    expect((await s.call("GET", "/admin/clients", { "x-api-key": ADMIN })).status).toBe(200);
    expect((await s.call("GET", "/admin/clients", { "x-admin-key": ADMIN })).status).toBe(200);
    expect((await s.call("GET", "/transactions", { "x-admin-key": ADMIN })).status).toBe(200);
    expect((await s.call("GET", "/admin/clients", { "x-admin-key": "wrong" })).status).toBe(401);
    const { key } = await s.clientWithKey("plain-client");
    const asClient = await s.call("GET", "/admin/clients", { "x-api-key": key });
    expect(asClient.status).toBe(403);
    expect(asClient.json.detail).toContain("admin key");
    expect((await s.call("GET", "/admin/clients", { "x-admin-key": key })).status).toBe(401);
  });
});

describe("clients and keys", () => {
  test("a generated key is shown once: never in the client, its key list, or the database file", async () => {
    const created = await s.admin("POST", "/admin/clients", {
      client_id: "erp",
      name: "ERP",
      tenant_id: "acme",
      permissions: ["transaction.read"],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      client_id: "erp",
      name: "ERP",
      tenant_id: "acme",
      permissions: ["transaction.read"],
      has_api_key: false,
      total_api_keys: 0,
      active_api_keys: 0,
    });
    const k = await s.admin("POST", "/admin/clients/erp/keys", { description: "production" });
    expect(k.status).toBe(201);
    expect(k.json).toMatchObject({ client_id: "erp", client_name: "ERP", description: "production" });
    expect(k.json.api_key).toMatch(/^dp_live_[0-9A-Za-z]{43}$/);
    expect(k.json.api_key.endsWith(k.json.key_suffix)).toBe(true);
    const detail = await s.admin("GET", "/admin/clients/erp");
    expect(detail.json).toMatchObject({ has_api_key: true, total_api_keys: 1, active_api_keys: 1 });
    const everything = JSON.stringify([
      detail.json,
      (await s.admin("GET", "/admin/clients/erp/keys")).json,
      (await s.admin("GET", "/admin/clients")).json,
    ]);
    expect(everything).toContain(k.json.key_id);
    expect(everything).not.toContain(k.json.api_key);
    const file = storedText(s.db, s.dir, ["api_keys", "clients"]);
    expect(file).not.toContain(k.json.api_key);
    expect(file).not.toContain(k.json.api_key.slice(8));
    expect((await s.call("GET", "/transactions", { "x-api-key": k.json.api_key })).status).toBe(200);
  });

  test("rotation: a new key works alongside the old; the revoked old key answers 401 on the very next request", async () => {
    const { key: oldKey, keyId: oldId } = await s.clientWithKey("rotating", { tenant_id: "acme" });
    expect((await s.call("GET", `/transactions/${acmeTx}`, { "x-api-key": oldKey })).status).toBe(200);
    const fresh = (await s.admin("POST", "/admin/clients/rotating/keys", { description: "new" })).json.api_key;
    expect((await s.call("GET", `/transactions/${acmeTx}`, { "x-api-key": fresh })).status).toBe(200);
    expect((await s.call("GET", `/transactions/${acmeTx}`, { "x-api-key": oldKey })).status).toBe(200);
    const revoked = await s.admin("DELETE", `/admin/clients/rotating/keys/${oldId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ key_id: oldId, active: false });
    expect(revoked.json.revoked_at).toBeString();
    const next = await s.call("GET", `/transactions/${acmeTx}`, { "x-api-key": oldKey });
    expect(next.status).toBe(401);
    expect((await s.call("GET", `/transactions/${acmeTx}`, { "x-api-key": fresh })).status).toBe(200);
    expect((await s.admin("GET", "/admin/clients/rotating")).json).toMatchObject({
      has_api_key: true,
      total_api_keys: 2,
      active_api_keys: 1,
    });
    expect((await s.admin("DELETE", "/admin/clients/rotating/keys/key_unknown")).status).toBe(404);
  });

  test("deleting a client ends its keys at once; updates change permissions and limits; bad input is 400 naming the field", async () => {
    const { key } = await s.clientWithKey("temp", { tenant_id: "acme" });
    const patched = await s.admin("PATCH", "/admin/clients/temp", {
      permissions: ["transaction.read", "split"],
      rate_limit_per_minute: 5,
    });
    expect(patched.json).toMatchObject({
      permissions: ["transaction.read", "split"],
      rate_limit_per_minute: 5,
      rate_limit_per_hour: null,
    });
    expect((await s.call("GET", "/auth/me", { "x-api-key": key })).json.rate_limits).toEqual({
      per_minute: 5,
      per_hour: 18_000,
      async_per_hour: 300,
    });
    expect(
      (await s.admin("PATCH", "/admin/clients/temp", { rate_limit_per_minute: null })).json.rate_limit_per_minute,
    ).toBeNull();
    expect((await s.admin("DELETE", "/admin/clients/temp")).status).toBe(200);
    expect((await s.call("GET", "/auth/me", { "x-api-key": key })).status).toBe(401);
    expect((await s.admin("GET", "/admin/clients/temp")).status).toBe(404);
    const bad = await s.admin("POST", "/admin/clients", { client_id: "x", permissions: ["transaction.create", "fly"] });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toContain('"fly"');
    expect(bad.json.detail).toContain("transaction.download_results");
    expect((await s.admin("POST", "/admin/clients", { client_id: "x", tenant_id: "nowhere" })).status).toBe(404);
    expect((await s.admin("POST", "/admin/clients", { client_id: "erp" })).status).toBe(400);
  });
});

describe("tenancy", () => {
  test("another tenant's transaction, project and tenant answer 404 exactly like missing ones", async () => {
    const { key } = await s.clientWithKey("globex-app", { tenant_id: "globex" });
    const as = s.withKey(key);
    const foreign = await as("GET", `/transactions/${acmeTx}`);
    const missing = await as("GET", "/transactions/00000000-0000-4000-8000-000000000000");
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.json.detail).toBe(`Transaction ${acmeTx} not found`);
    for (const p of ["/exports", "/documents", "/start"]) {
      expect((await as(p === "/start" ? "POST" : "GET", `/transactions/${acmeTx}${p}`)).status).toBe(404);
    }
    expect((await as("GET", `/tenants/acme/projects/${acmeProject}`)).json.detail).toBe(
      `Project ${acmeProject} not found in tenant acme`,
    );
    expect((await as("POST", `/tenants/acme/projects/${acmeProject}/transactions`, {})).status).toBe(404);
    expect((await as("GET", "/tenants/acme/projects")).status).toBe(404);
    expect((await as("GET", "/tenants/globex/projects")).status).toBe(200);
  });

  test("lists and batch status show only the caller's tenant; the admin sees every tenant", async () => {
    const { key } = await s.clientWithKey("globex-reader", { tenant_id: "globex" });
    const list = await s.call("GET", "/transactions", { "x-api-key": key });
    expect(list.json.items.map((t: any) => t.transaction_id)).not.toContain(acmeTx);
    expect((await s.call("GET", "/transactions?tenant_id=acme", { "x-api-key": key })).json.items).toEqual([]);
    const batch = await s.call(
      "POST",
      "/transactions/batch-status",
      { "x-api-key": key },
      { transaction_ids: [acmeTx] },
    );
    expect(batch.json.statuses[acmeTx]).toEqual({ transaction_id: acmeTx, error: "not_found" });
    expect((await s.admin("GET", "/transactions")).json.items.map((t: any) => t.transaction_id)).toContain(acmeTx);
    const { key: acmeKey } = await s.clientWithKey("acme-reader", { tenant_id: "acme" });
    expect(
      (await s.call("POST", "/transactions/batch-status", { "x-api-key": acmeKey }, { transaction_ids: [acmeTx] })).json
        .statuses[acmeTx].status,
    ).toBe("created");
  });
});

describe("permissions", () => {
  test("a missing permission answers 403 with a detail naming it", async () => {
    const { key } = await s.clientWithKey("reader-only", { tenant_id: "acme", permissions: ["transaction.read"] });
    const as = s.withKey(key);
    expect((await as("GET", `/transactions/${acmeTx}`)).status).toBe(200);
    const create = await as("POST", `/tenants/acme/projects/${acmeProject}/transactions`, {});
    expect(create.status).toBe(403);
    expect(create.headers.get("x-ratelimit-remaining")).toBe("598"); // a refused request still counted, and says so
    expect(create.json.detail).toBe("Missing permission: transaction.create");
    expect((await as("GET", `/transactions/${acmeTx}/exports`)).json.detail).toBe(
      "Missing permission: transaction.download_results",
    );
    expect((await as("POST", "/tenants/acme/projects", { name: "x", description: "" })).json.detail).toBe(
      "Missing permission: project.manage",
    );
    const { key: noRead } = await s.clientWithKey("creator-only", {
      tenant_id: "acme",
      permissions: ["transaction.create"],
    });
    expect((await s.call("GET", "/transactions", { "x-api-key": noRead })).json.detail).toBe(
      "Missing permission: transaction.read",
    );
    const files = await s.call("GET", `/transactions/${acmeTx}/source-files`, { "x-api-key": noRead });
    expect([files.status, files.json.detail]).toEqual([403, "Missing permission: transaction.read"]);
    expect((await as("GET", `/transactions/${acmeTx}/source-files`)).status).toBe(200);
  });

  test("submitting work needs the permission of each enabled split/classify/extract step of the project", async () => {
    const { key } = await s.clientWithKey("no-extract", {
      tenant_id: "acme",
      permissions: ["transaction.create", "split", "classify"],
    });
    const process = (project: string) =>
      s.call(
        "POST",
        `/tenants/acme/projects/${project}/transactions/process`,
        { "x-api-key": key },
        { documentText: "Invoice 1" },
      );
    const refused = await process(acmeProject);
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toStartWith("Missing permission: extract");
    const settings = (await s.admin("GET", `/tenants/acme/projects/${acmeProject}`)).json.settings;
    const noExtract = (
      await s.admin("POST", "/tenants/acme/projects", {
        name: "Split only",
        description: "",
        settings: { ...settings, workflow: [{ type: "extract", enabled: false }] },
      })
    ).json.project_id;
    expect((await process(noExtract)).status).toBe(202);
  });
});

describe("administration", () => {
  test("endpoint health and reload-configs answer for the admin key only", async () => {
    const health = await s.call("GET", "/admin/endpoints/health", { "x-admin-key": ADMIN });
    expect(health.status).toBe(200);
    expect(health.json.status).toBe("ok");
    expect(health.json.endpoints.map((e: any) => e.name)).toEqual(["database", "queue", "export_storage", "ocr"]);
    const reload = await s.call("POST", "/admin/reload-configs", { "x-admin-key": ADMIN });
    expect(reload.json).toMatchObject({
      reloaded: true,
      tenants: 3,
      rate_limits: { per_minute: 600, per_hour: 18_000, async_per_hour: 300 },
      sessions: { lifetime_seconds: 43_200, idle_timeout_seconds: 1800 },
    });
    expect((await s.call("POST", "/admin/reload-configs")).status).toBe(401);
    expect((await s.admin("GET", "/admin/tenants")).json.items.map((t: any) => t.tenant_id)).toEqual([
      "default",
      "acme",
      "globex",
    ]);
    expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme" })).status).toBe(400);
    expect((await s.admin("POST", "/admin/tenants", { tenant_id: "../etc" })).json.detail).toStartWith("tenant_id:");
  });

  test("rate-limit headers come with every response to a client key, errors from the route included", async () => {
    const { key } = await s.clientWithKey("header-check", { tenant_id: "acme" });
    const bad = await s.call("POST", "/transactions/batch-status", { "x-api-key": key }, { transaction_ids: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-ratelimit-remaining")).toBe("599");
    const unknown = await s.call("GET", "/no/such/route", { "x-api-key": key });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-ratelimit-remaining")).toBe("598");
    expect((await s.call("GET", "/health")).headers.get("x-ratelimit-limit")).toBeNull();
  });
});
