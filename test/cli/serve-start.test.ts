/**
 * `docproc serve` without ADMIN_API_KEY keeps one admin key in the data directory (0600, shown once, reused after a
 * restart), and warns when the links it hands out point at loopback while capture or webhooks are in use.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ADMIN_KEY_FILE, isLoopbackUrl, publicUrlWarning, storedAdminKey } from "../../src/cli/serve-start";
import { freePort, spawnServe } from "../support/process";
import { waitForOutput } from "../support/wait";

const dir = mkdtempSync(path.join(tmpdir(), "docproc-serve-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the stored admin key: created once with mode 0600, then the same key", () => {
  const data = path.join(dir, "unit", "data");
  const first = storedAdminKey(data);
  expect(first.created).toBe(true);
  expect(first.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(statSync(path.join(data, ADMIN_KEY_FILE)).mode & 0o777).toBe(0o600);
  const again = storedAdminKey(data);
  expect(again).toEqual({ ...first, created: false });
});

test("the loopback warning: only for a loopback base in use, naming what is affected and the variable to set", () => {
  for (const u of [
    "http://127.0.0.1:8080",
    "http://localhost:1",
    "http://[::1]:8080",
    "http://0.0.0.0:8080",
    "http://app.localhost",
  ])
    expect(isLoopbackUrl(u)).toBe(true);
  for (const u of ["http://192.168.1.20:8080", "https://docs.example.com", "not a url"])
    expect(isLoopbackUrl(u)).toBe(false);
  expect(publicUrlWarning("http://127.0.0.1:8080", { capture: false, webhooks: false })).toBeNull();
  expect(publicUrlWarning("https://docs.example.com", { capture: true, webhooks: true })).toBeNull();
  const w = publicUrlWarning("http://127.0.0.1:9000", { capture: true, webhooks: false }, "192.168.1.20")!;
  expect(w).toContain("capture QR codes point at http://127.0.0.1:9000");
  expect(w).toContain("DOCPROC_PUBLIC_URL=http://192.168.1.20:9000 docproc serve --host 0.0.0.0");
});

async function stop(served: { proc: { kill(s?: NodeJS.Signals): void; exited: Promise<number> } }) {
  served.proc.kill("SIGTERM");
  expect(await served.proc.exited).toBe(0);
}

test("serve without ADMIN_API_KEY: the key survives a restart, shown only when created; the warning once webhooks exist", async () => {
  const data = path.join(dir, "serve-data");
  const port = await freePort();
  const first = await spawnServe({ dataDir: data, port, key: "", workers: 0, env: { DOCPROC_LOG_FORMAT: "json" } });
  let key = "";
  try {
    // The notice is printed right after listening: wait for its line (an event, not a time).
    await waitForOutput(first.output, /shown this once:\n {2}\S+\n/);
    key = /shown this once:\n {2}(\S+)\n/.exec(first.output())![1];
    const admin = (method: string, p: string, body?: unknown) =>
      fetch(`${first.base}${p}`, {
        method,
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await admin("GET", "/admin/clients")).status).toBe(200);
    // API bodies keep their old contract: an unknown settings key is ignored (project files are strict instead), so
    // a client written against another version of docproc keeps working.
    const typo = await admin("POST", "/tenants/default/projects", {
      name: "typo",
      settings: { review_threshold: { field: 0.7 } },
    });
    expect(typo.status).toBe(201);
    expect(JSON.stringify((await typo.json()).settings ?? {})).not.toContain('review_threshold"');
    const workflow = [
      { type: "export" },
      { type: "notification", id: "hook", activity: { webhook_url: "https://hooks.example.com/in" } },
    ];
    expect((await admin("POST", "/tenants/default/projects", { name: "hooked", settings: { workflow } })).status).toBe(
      201,
    );
  } finally {
    await stop(first);
  }
  // Nothing handed links out at that start: no warning.
  expect(first.output()).not.toContain("public_url_loopback");

  const second = await spawnServe({ dataDir: data, port, key: "", workers: 0, env: { DOCPROC_LOG_FORMAT: "json" } });
  try {
    const res = await fetch(`${second.base}/admin/clients`, { headers: { "X-API-Key": key } });
    expect(res.status).toBe(200);
    // The listening line comes before the warning: wait for the warning's line itself.
    await waitForOutput(second.output, "public_url_loopback");
    const out = second.output();
    expect(out).toContain(`using the admin key stored in ${path.join(data, ADMIN_KEY_FILE)}`);
    expect(out).not.toContain(key);
    expect(out).toContain(`webhook download links point at http://127.0.0.1:${port}`);
    expect(out).toContain("DOCPROC_PUBLIC_URL=");
  } finally {
    await stop(second);
  }
}, 120_000);
