/** The mail connector API: settings validated, the password write-only and sealed at rest, project.manage needed. */
import { afterAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { jsonOrText, requestInit } from "../support/http";
import { KEY } from "./helpers";

const ADMIN = "mail-api-admin-key";
const PASSWORD = "hunter2-imap-password";
const apps: TestApp[] = [];

afterAll(async () => {
  for (const a of apps) await a.close();
});

async function setup(withKey = true) {
  const t = buildTestApp({ adminKey: ADMIN, prefix: "mail-api", wirePool: false });
  apps.push(t);
  if (withKey) t.deps.secretKey = KEY;
  const call = async (method: string, url: string, body?: unknown, key = ADMIN) => {
    const res = await t.app.handle(
      new Request(`http://api.test${url}`, requestInit(method, { "x-api-key": key }, body)),
    );
    return { status: res.status, json: jsonOrText(await res.text()) as any };
  };
  const project = (await call("POST", "/tenants/default/projects", { name: "Mail", description: "" })).json
    .project_id as string;
  return { t, call, base: `/tenants/default/projects/${project}/mail-connectors` };
}

const body = {
  name: "invoices",
  host: "imap.example.com",
  username: "invoices@example.com",
  password: PASSWORD,
  folder: "INBOX",
  after_import: { action: "move", folder: "Done" },
};

describe("mail connector API", () => {
  test("create → read → update → delete; the password is never in a response nor stored in clear", async () => {
    const { t, call, base } = await setup();
    const created = await call("POST", base, body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: "invoices",
      host: "imap.example.com",
      port: 993,
      security: "tls",
      folder: "INBOX",
      has_password: true,
      idle: true,
      poll_interval_seconds: 60,
    });
    expect(created.json.after_import).toEqual({ action: "move", folder: "Done" });
    const id = created.json.connector_id;
    const list = await call("GET", base);
    const one = await call("GET", `${base}/${id}`);
    expect(list.json.items.map((c: any) => c.connector_id)).toEqual([id]);
    for (const r of [created, list, one]) {
      expect(JSON.stringify(r.json)).not.toContain(PASSWORD);
      expect(JSON.stringify(r.json)).not.toContain("sealed");
    }
    const stored = t.data.db
      .query<{ settings: string; password_sealed: string }, []>("SELECT settings, password_sealed FROM mail_connectors")
      .get()!;
    expect(stored.settings + stored.password_sealed).not.toContain(PASSWORD);
    expect(stored.password_sealed).toStartWith("v1.");

    const patched = await call("PATCH", `${base}/${id}`, {
      folder: "Invoices",
      password: "new-password",
      filter: { unseen: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ folder: "Invoices", host: "imap.example.com", filter: { unseen: true } });
    const resealed = t.data.db
      .query<{ password_sealed: string }, []>("SELECT password_sealed FROM mail_connectors")
      .get()!.password_sealed;
    expect(resealed).not.toBe(stored.password_sealed);
    expect(JSON.stringify(patched.json)).not.toContain("new-password");

    expect((await call("GET", `${base}/${id}/messages?state=failed`)).json).toEqual({ items: [] });
    expect((await call("GET", `${base}/${id}/messages?state=lost`)).status).toBe(400);
    expect((await call("DELETE", `${base}/${id}`)).json).toEqual({ connector_id: id, deleted: true });
    expect((await call("GET", `${base}/${id}`)).status).toBe(404);
  });

  test("invalid settings are a 400 listing every problem; plain IMAP only to loopback", async () => {
    const { call, base } = await setup();
    const bad = await call("POST", base, {
      host: "",
      username: "u",
      password: "p",
      security: "ssl",
      poll_interval_seconds: 0,
      extra: 1,
    });
    expect(bad.status).toBe(400);
    for (const field of ["host", "security", "poll_interval_seconds"]) expect(bad.json.detail).toContain(field);
    expect(bad.json.detail).toMatch(/extra|Unrecognized/i);
    const plain = await call("POST", base, { ...body, security: "none" });
    expect(plain.status).toBe(400);
    expect(plain.json.detail).toContain("loopback");
    expect((await call("POST", base, { ...body, host: "127.0.0.1", security: "none" })).status).toBe(201);
    const move = await call("POST", base, { ...body, after_import: { action: "move" } });
    expect(move.status).toBe(400);
    expect(move.json.detail).toContain("folder");
  });

  test("without DOCPROC_SECRET_KEY a connector cannot be created: 400 naming the variable", async () => {
    const { call, base } = await setup(false);
    const r = await call("POST", base, body);
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain("DOCPROC_SECRET_KEY");
  });

  test("a key without project.manage can neither read nor change connectors; another tenant sees 404", async () => {
    const { call, base } = await setup();
    await call("POST", "/admin/tenants", { tenant_id: "other", name: "Other" });
    await call("POST", "/admin/clients", { client_id: "erp", permissions: ["transaction.create", "transaction.read"] });
    const erp = (await call("POST", "/admin/clients/erp/keys", {})).json.api_key as string;
    await call("POST", "/admin/clients", { client_id: "ops", tenant_id: "other", permissions: ["project.manage"] });
    const ops = (await call("POST", "/admin/clients/ops/keys", {})).json.api_key as string;
    const id = (await call("POST", base, body)).json.connector_id;
    expect((await call("GET", base, undefined, erp)).status).toBe(403);
    expect((await call("POST", base, body, erp)).status).toBe(403);
    expect((await call("DELETE", `${base}/${id}`, undefined, erp)).status).toBe(403);
    expect((await call("GET", `${base}/${id}`, undefined, ops)).status).toBe(404);
    expect((await call("GET", `${base}/${id}`)).status).toBe(200);
  });
});
