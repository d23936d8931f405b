/**
 * Every page under a sub-path, in a real browser (chromium + playwright-core) behind a real reverse proxy on
 * loopback that strips `/docproc` and sends X-Forwarded-Proto/Host/Prefix (like Traefik's StripPrefix or nginx
 * `proxy_pass http://docproc/;`). The server trusts 127.0.0.1 only (DOCPROC_TRUST_PROXY=127.0.0.1), over a real
 * socket. Saves test-output/explorer.png (the explorer with a request sent through the prefix).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { parseTrustProxy } from "../../src/server/proxy";
import { buildTestApp } from "../support/app";

const ADMIN = "subpath-admin-key";
const CHROMIUM = "/usr/bin/chromium";
const OUT = path.resolve(import.meta.dir, "../../test-output");
let t: ReturnType<typeof buildTestApp>;
let proxy: ReturnType<typeof Bun.serve>;
let browser: Browser;
let front: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)`);
  t = buildTestApp({ adminKey: ADMIN, prefix: "subpath", config: { trustProxy: parseTrustProxy("127.0.0.1") } });
  const upstream = t.listen();
  proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== "/docproc" && !url.pathname.startsWith("/docproc/"))
        return new Response("not behind /docproc", { status: 404 });
      const headers = new Headers(req.headers);
      headers.set("x-forwarded-proto", "http");
      headers.set("x-forwarded-host", url.host);
      headers.set("x-forwarded-prefix", "/docproc");
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      const res = await fetch(`${upstream}${url.pathname.slice("/docproc".length) || "/"}${url.search}`, {
        method: req.method,
        headers,
        body,
        redirect: "manual",
        decompress: false, // pass bodies through as sent (gzip stays gzip), like nginx or Traefik
      });
      return new Response(res.body, { status: res.status, headers: res.headers });
    },
  });
  front = `http://127.0.0.1:${proxy.port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  proxy?.stop(true);
  await t?.close();
});

test("start page → explorer (operations, a GET with a path parameter sent) and the capture page all work under /docproc", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1100 } });
  const stray: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => void (r.url().startsWith(`${front}/docproc/`) || stray.push(r.url())));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(String(e)));

  await page.goto(`${front}/docproc/`);
  await page.click("text=API explorer");
  await page.locator(".opblock").first().waitFor();
  expect(page.url()).toBe(`${front}/docproc/api-docs`);
  expect(await page.locator(".opblock").count()).toBeGreaterThan(40);
  await page.locator(".auth-wrapper .authorize").click();
  const scheme = page.locator(".auth-container", { hasText: "X-API-Key" }).first();
  await scheme.locator("input").fill(ADMIN);
  await scheme.locator("button.authorize").click();
  await page.locator(".auth-btn-wrapper .btn-done").first().click();

  // A GET with a path parameter, sent from the explorer through the prefix: the document's server is /docproc.
  const op = page.locator("#operations-Projects-get_tenants_tenant_id_projects");
  await op.locator(".opblock-summary").first().click();
  await op.locator('tr[data-param-name="tenant_id"] input').fill("default");
  await op.locator("button.execute").click();
  await op.locator(".live-responses-table .response-col_description", { hasText: '"items"' }).waitFor();
  expect((await op.locator(".live-responses-table .response .response-col_status").first().textContent())?.trim()).toBe(
    "200",
  );
  expect(await op.locator(".request-url").textContent()).toContain(`${front}/docproc/tenants/default/projects`);
  await op.locator(".opblock-summary").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT, "explorer.png") });
  expect(statSync(path.join(OUT, "explorer.png")).size).toBeGreaterThan(20_000);

  // The capture link names the public prefix, and the page opens its session through it.
  const project = (
    await (
      await fetch(`${front}/docproc/tenants/default/projects`, {
        method: "POST",
        headers: { "x-api-key": ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ name: "Sub" }),
      })
    ).json()
  ).project_id;
  const minted = await (
    await fetch(`${front}/docproc/tenants/default/projects/${project}/capture-tokens`, {
      method: "POST",
      headers: { "x-api-key": ADMIN, "content-type": "application/json" },
      body: "{}",
    })
  ).json();
  expect(minted.capture_url).toStartWith(`${front}/docproc/capture#`);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  phone.on("request", (r) => void (r.url().startsWith(`${front}/docproc/`) || stray.push(r.url())));
  await phone.goto(minted.capture_url);
  await phone.waitForSelector("#capture:not([hidden])");

  expect(stray).toEqual([]);
  expect(errors).toEqual([]);
}, 60_000);
