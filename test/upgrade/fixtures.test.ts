/**
 * Upgrades keep data and behaviour (issue 38): data directories written by earlier releases' own code
 * (fixtures/upgrade/<release>/, MAKING.md says how) are opened by today's `docproc serve`, first on their SQLite
 * file, then after `docproc migrate` into a private PostgreSQL. Every record is readable, every export downloads
 * byte for byte, the key and the session still work, the client holds no permission it did not hold, migrations run
 * once (a second start changes nothing and logs no settings migration), and the stored projects behave as they did:
 * a stored transaction run again from Classify (where the release stored its run state), the transaction the release
 * left queued and new ones on its projects (PDF, text, phone capture) complete without pausing in awaiting_input;
 * documents and source-file lists read back; the project history notes each settings migration.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Database } from "bun:sqlite";
import { MIGRATIONS } from "../../src/storage/schema/migration-list";
import { freshPostgresUrl } from "../support/postgres";
import { freePort, ROOT, runCli, spawnServe, type Served } from "../support/process";
import { removeAll, tempDir } from "../support/temp";

const FIXTURES = path.join(ROOT, "fixtures/upgrade");
const RELEASES = readdirSync(FIXTURES)
  .filter((d) => existsSync(path.join(FIXTURES, d, "expected.json")))
  .sort();
const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

type Json = Record<string, any>;
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const inbox = (name: string) => readFileSync(path.join(ROOT, "fixtures/inbox", name));

async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined)
    Object.assign(init, { body: JSON.stringify(body), headers: { ...headers, "content-type": "application/json" } });
  const res = await fetch(base + url, init);
  const text = await res.text();
  return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : text) as Json };
}

/** Long-polls until the transaction leaves created/queued/processing. */
async function settled(base: string, key: string, id: string): Promise<Json> {
  for (let i = 0; i < 60; i++) {
    const r = await call(base, "GET", `/transactions/${id}?timeout=30`, { "x-api-key": key });
    expect(r.status).toBe(200);
    if (!["created", "queued", "processing"].includes(r.json.status)) return r.json;
  }
  throw new Error(`transaction ${id} did not settle`);
}

/** The checks of one opened fixture; `firstStart` says whether its settings migrations are expected in this log. */
async function checkRelease(s: Served, e: Json, release: string) {
  const key = { "x-api-key": e.api_key };
  // Key, session, client: valid, and the client holds exactly what it held.
  expect((await call(s.base, "GET", "/auth/me", key)).status).toBe(200);
  const me = await call(s.base, "GET", "/auth/me", { "x-session-token": e.session_token });
  expect(me.status).toBe(200);
  expect(JSON.stringify(me.json)).toContain(e.user_id);
  const client = await call(s.base, "GET", `/admin/clients/${e.client_id}`, { "x-api-key": e.admin_key });
  expect(client.status).toBe(200);
  expect(client.json.permissions).toEqual(e.client_permissions);
  // Every stored transaction readable, every export file the same bytes.
  for (const t of e.transactions) {
    const got = await call(s.base, "GET", `/transactions/${t.id}`, key);
    expect([release, t.id, got.status, got.json.status]).toEqual([release, t.id, 200, t.status]);
    const manifest = await call(s.base, "GET", `/transactions/${t.id}/exports`, key);
    expect(manifest.json.total_files).toBe(t.exports.total_files);
    // Its documents and source files read back too.
    const docs = await call(s.base, "GET", `/transactions/${t.id}/documents`, key);
    expect([t.id, docs.status, docs.json.documents.length > 0]).toEqual([t.id, 200, true]);
    const sources = await call(s.base, "GET", `/transactions/${t.id}/source-files`, key);
    expect([t.id, sources.status]).toEqual([t.id, 200]);
    for (const f of t.exports.files) {
      const res = await fetch(`${s.base}/transactions/${t.id}/exports/download/${encodeURIComponent(f.filename)}`, {
        headers: key,
      });
      expect([f.filename, res.status]).toEqual([f.filename, 200]);
      expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(f.sha256);
    }
  }
  // Stored projects: readable, and their Review step does what it did (nothing).
  const projects = await call(s.base, "GET", `/tenants/${e.tenant_id}/projects`, key);
  const byId = new Map((projects.json.items as Json[]).map((p) => [p.project_id, p]));
  for (const p of e.projects) {
    const now = byId.get(p.project_id)!;
    expect(now.name).toBe(p.name);
    const review = (now.settings.workflow as Json[]).find((n) => n.type === "review")!;
    expect(review.enabled).toBe(false);
    // The project's history says why, when the upgrade changed it (the early releases' Review nodes).
    const history = await call(s.base, "GET", `/tenants/${e.tenant_id}/projects/${p.project_id}/history`, key);
    expect(history.status).toBe(200);
    const migrated = p.settings.workflow.find((n: Json) => n.type === "review").when === undefined;
    expect([release, history.json.items.length, now.project_version]).toEqual([
      release,
      migrated ? 1 : 0,
      p.project_version + (migrated ? 1 : 0),
    ]);
  }
  // A stored transaction run again from Classify completes as it did (wave 1 stored no run state: 400, documented).
  const first = e.transactions[0];
  const rerun = await call(s.base, "POST", `/transactions/${first.id}/rerun`, key, { from_step: "classify" });
  if (existsSync(path.join(FIXTURES, release, "data/state"))) {
    expect([release, rerun.status]).toEqual([release, 202]);
    expect((await settled(s.base, e.api_key, first.id)).status).toBe("completed");
  } else expect([rerun.status, String(rerun.json.detail)]).toEqual([400, expect.stringContaining("stored pages")]);
  // The transaction the release left queued completes; so do new ones on its projects.
  expect((await settled(s.base, e.api_key, e.queued.id)).status).toBe("completed");
  const pid = e.projects[0].project_id;
  const submitted: string[] = [];
  const pdf = await call(s.base, "POST", `/tenants/${e.tenant_id}/projects/${pid}/transactions/process`, key, {
    source_files: [{ filename: "invoice.pdf", base64_data: inbox("born-digital-invoice.pdf").toString("base64") }],
  });
  const text = await call(
    s.base,
    "POST",
    `/tenants/${e.tenant_id}/projects/${e.projects[1].project_id}/transactions/process`,
    key,
    { documentText: "INVOICE\nInvoice number: INV-7\nTotal: 119.00 EUR\n" },
  );
  submitted.push(pdf.json.transaction_id, text.json.transaction_id);
  const minted = await call(s.base, "POST", `/tenants/${e.tenant_id}/projects/${pid}/capture-tokens`, key, {});
  expect(minted.status).toBe(201);
  expect((await call(s.base, "POST", "/capture/session", {}, { token: minted.json.token })).status).toBe(200);
  const form = new FormData();
  form.append("token", minted.json.token);
  form.append("files", new File([inbox("phone-photo.jpg")], "photo.jpg", { type: "image/jpeg" }));
  expect((await call(s.base, "POST", "/capture/submit", {}, form)).status).toBe(200);
  submitted.push(minted.json.transaction_id);
  for (const id of submitted) {
    const done = await settled(s.base, e.api_key, id);
    expect([release, id, done.status]).toEqual([release, id, "completed"]);
    const manifest = await call(s.base, "GET", `/transactions/${id}/exports`, key);
    expect(manifest.json.total_files).toBeGreaterThan(0);
  }
}

const settingsLines = (out: string) => out.split("\n").filter((l) => l.includes("settings migrated"));

async function serveOn(dir: string, e: Json, env: Record<string, string>): Promise<Served> {
  return spawnServe({
    dataDir: dir,
    port: await freePort(),
    key: e.admin_key,
    workers: 1,
    env: { DOCPROC_SESSION_IDLE_MINUTES: "100000000", DOCPROC_LOG_LEVEL: "info", ...env },
  });
}

async function stop(s: Served) {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
}

function expectSettingsLog(lines: string[], e: Json, release: string) {
  // One line per project, once; the early releases' review nodes were switched off, the later ones' kept.
  expect(lines).toHaveLength(e.projects.length);
  const early = e.projects[0].settings.workflow.find((n: Json) => n.type === "review").when === undefined;
  for (const line of lines) expect([release, line.includes("enabled: false")]).toEqual([release, early]);
}

describe.each(RELEASES)("upgrade from %s", (release) => {
  const e: Json = JSON.parse(readFileSync(path.join(FIXTURES, release, "expected.json"), "utf8"));

  test("SQLite: opened by today's serve, every check holds; a second start migrates nothing", async () => {
    const dir = tempDir("docproc-upgrade-", cleanup);
    cpSync(path.join(FIXTURES, release, "data"), dir, { recursive: true });
    const first = await serveOn(dir, e, {});
    try {
      await checkRelease(first, e, release);
    } finally {
      await stop(first);
    }
    expectSettingsLog(settingsLines(first.output()), e, release);
    const db = new Database(path.join(dir, "docproc.db"), { readonly: true });
    const versions = () =>
      db
        .query<{ project_id: string; project_version: number }, []>(
          "SELECT project_id, project_version FROM projects ORDER BY project_id",
        )
        .all();
    const before = versions();
    const applied = db
      .query<{ version: number; n: number }, []>(
        "SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version",
      )
      .all();
    db.close();
    expect(applied.map((r) => [r.version, r.n])).toEqual(MIGRATIONS.map((m) => [m.version, 1]));
    const second = await serveOn(dir, e, {});
    await stop(second);
    expect(settingsLines(second.output())).toEqual([]);
    const again = new Database(path.join(dir, "docproc.db"), { readonly: true });
    expect(again.query("SELECT project_id, project_version FROM projects ORDER BY project_id").all()).toEqual(before);
    again.close();
  }, 240_000);

  test("PostgreSQL: docproc migrate, then the same checks on today's serve", async () => {
    const dir = tempDir("docproc-upgrade-pg-", cleanup);
    cpSync(path.join(FIXTURES, release, "data"), dir, { recursive: true });
    const url = freshPostgresUrl();
    const migrated = await runCli(["migrate", "--data", dir], {
      env: { DOCPROC_DATABASE_URL: url },
      timeoutMs: 120_000,
    });
    expect([migrated.code, migrated.stderr]).toEqual([0, ""]);
    expectSettingsLog(settingsLines(migrated.stdout), e, release);
    const s = await serveOn(dir, e, { DOCPROC_DATABASE_URL: url });
    try {
      await checkRelease(s, e, release);
    } finally {
      await stop(s);
    }
    // Everything was migrated before the copy: the server on PostgreSQL had nothing left to do.
    expect(settingsLines(s.output())).toEqual([]);
  }, 240_000);
});
