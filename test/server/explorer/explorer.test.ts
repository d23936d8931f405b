/**
 * The API explorer (Swagger UI, bundled) in a real browser (Debian chromium, installed by .ci/run, driven by
 * playwright-core) against the real server on a loopback port: it loads with no request leaving this server and no
 * console error (its Content-Security-Policy would report one), lists the operations, refuses to send with an empty
 * path parameter, and sends a GET with path parameters that answers 200, with a curl snippet. At laptop and phone
 * width; saves test-output/explorer-laptop.png and explorer-phone.png (copied to docs/).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { KEY, testApp } from "../helpers";

const CHROMIUM = "/usr/bin/chromium";
const OUT = path.resolve(import.meta.dir, "../../../test-output");
let browser: Browser;
let t: ReturnType<typeof testApp>;
let base: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)`);
  t = testApp({ workers: 0 });
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
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
  await t?.app.stop();
  await t?.close();
});

/** Opens the explorer and records every request that leaves this server and every console error. */
async function openExplorer(width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  const outside: string[] = [];
  const errors: string[] = [];
  const sent: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith("data:")) outside.push(r.url());
    else sent.push(`${r.method()} ${r.url().slice(base.length)}`);
  });
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(String(e)));
  await page.goto(`${base}/api-docs`);
  await page.locator(".opblock").first().waitFor();
  return { page, outside, errors, sent };
}

/** Authorize → the X-API-Key scheme's value → Authorize → Close. */
async function authorize(page: Page, key: string) {
  await page.locator(".auth-wrapper .authorize").click();
  const scheme = page.locator(".auth-container", { hasText: "X-API-Key" }).first();
  await scheme.locator("input").fill(key);
  await scheme.locator("button.authorize").click();
  await page.locator(".auth-btn-wrapper .btn-done").first().click();
}

/** Expands the operation with this operationId (Swagger UI's block id is operations-<tag>-<operationId>). */
async function expand(page: Page, tag: string, operationId: string) {
  const op = page.locator(`#operations-${tag}-${operationId}`);
  await op.locator(".opblock-summary").first().click();
  await op.locator(".opblock-body").waitFor();
  return op;
}

const noHorizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test("laptop: operations listed, an empty path parameter refused, a GET with path parameters answers 200 with a curl snippet", async () => {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "Explorer" })).json.project_id;
  const { page, outside, errors, sent } = await openExplorer(1366, 900);
  expect(await page.locator(".opblock").count()).toBeGreaterThan(40);
  expect(await page.locator(".opblock-tag").allTextContents()).toEqual(
    expect.arrayContaining([expect.stringContaining("Projects"), expect.stringContaining("Transactions")]),
  );
  await authorize(page, KEY);

  const op = await expand(page, "Projects", "get_tenants_tenant_id_projects_project_id");
  // Labelled inputs: each parameter row names the parameter, where it goes, and that it is required.
  const tenantRow = op.locator('tr[data-param-name="tenant_id"]');
  expect(await tenantRow.locator(".parameter__name").textContent()).toContain("tenant_id");
  expect(await tenantRow.locator(".parameter__in").textContent()).toContain("path");
  expect(await tenantRow.locator(".parameter__name.required").count()).toBe(1);

  // Execute with the path parameters empty: nothing is sent, the inputs are marked invalid.
  await op.locator("button.execute").click();
  await op.locator('tr[data-param-name="project_id"] input.invalid').waitFor();
  expect(sent.filter((s) => s.includes("/tenants/"))).toEqual([]);

  await tenantRow.locator("input").fill("default");
  await op.locator('tr[data-param-name="project_id"] input').fill(pid);
  await op.locator("button.execute").click();
  const status = op.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor();
  expect((await status.textContent())?.trim()).toBe("200");
  // The answer's body, rendered once it has arrived.
  await op.locator(".live-responses-table .response-col_description", { hasText: `"project_id": "${pid}"` }).waitFor();
  const curl = (await op.locator(".request-snippets, .curl-command").first().textContent()) ?? "";
  expect(curl).toContain(`${base}/tenants/default/projects/${pid}`);
  expect(curl).toContain(`X-API-Key: ${KEY}`);
  expect(sent).toContain(`GET /tenants/default/projects/${pid}`);

  await op.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT, "explorer-laptop.png") });
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

test("phone: the same request from a 390-pixel-wide screen, nothing wider than the screen", async () => {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "Phone" })).json.project_id;
  const tx = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
  const { page, outside, errors } = await openExplorer(390, 844);
  expect(await noHorizontalOverflow(page)).toBe(true);
  await authorize(page, KEY);
  const op = await expand(page, "Status", "get_transactions_transaction_id");
  await op.locator('tr[data-param-name="transaction_id"] input').fill(tx);
  await op.locator("button.execute").click();
  const status = op.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor();
  expect((await status.textContent())?.trim()).toBe("200");
  await op.locator(".live-responses-table .response-col_description", { hasText: '"status": "created"' }).waitFor();
  expect(await noHorizontalOverflow(page)).toBe(true);
  // The picture: the curl snippet and the answer, as a phone shows them.
  await page.evaluate(() => document.querySelector(".request-snippets")?.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: path.join(OUT, "explorer-phone.png") });
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

test("the bundle is served gzipped with an ETag, and a reload is a 304", async () => {
  const url = `${base}/api-docs/swagger-ui-bundle.js`;
  const full = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  expect(full.headers.get("content-encoding")).toBe("gzip");
  const text = await full.text();
  expect(text).toContain("SwaggerUIBundle");
  expect(text).not.toContain("sourceMappingURL=swagger-ui-bundle.js.map");
  const again = await fetch(url, { headers: { "if-none-match": full.headers.get("etag")! } });
  expect(again.status).toBe(304);
});

test("a multipart upload from the explorer: two files with their upload tokens, split policies and masked passwords", async () => {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "Upload" })).json.project_id;
  const tx = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
  const { page, outside, errors } = await openExplorer(1366, 900);
  await authorize(page, KEY);
  const op = await expand(page, "Transactions", "post_transactions_transaction_id_source_files");
  await op.locator('tr[data-param-name="transaction_id"] input').fill(tx);
  const body = op.locator(".opblock-section-request-body");
  const field = (name: string) => body.locator("tr", { has: page.locator(".parameter__name", { hasText: name }) });
  // One item per file in each list: "Add string item" until there are two.
  for (const name of ["files", "upload_tokens", "passwords"]) {
    const add = field(name).locator("button", { hasText: "Add" });
    while ((await field(name).locator("input:not([type=checkbox])").count()) < 2) await add.click();
  }
  await field("files")
    .locator("input[type=file]")
    .nth(0)
    .setInputFiles({
      name: "a.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 a"),
    });
  await field("files")
    .locator("input[type=file]")
    .nth(1)
    .setInputFiles({
      name: "b.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 b"),
    });
  await field("upload_tokens").locator("input").nth(0).fill("tok-a");
  await field("upload_tokens").locator("input").nth(1).fill("tok-b");
  await field("split_policies").locator("select").selectOption(["inherit", "single_document"]);
  const secret = field("passwords").locator("input:not([type=checkbox])");
  await secret.nth(0).fill("secret-a");
  await secret.nth(1).fill("secret-b");
  // Masked on screen (page.css).
  expect(await secret.nth(1).evaluate((e) => getComputedStyle(e).getPropertyValue("-webkit-text-security"))).toBe(
    "disc",
  );
  await op.locator("button.execute").click();
  await op.locator(".live-responses-table .response-col_status").first().waitFor();
  console.log(
    await op.locator(".live-responses-table").first().textContent(),
    await op.locator(".curl-command, .request-snippets").first().textContent(),
  );
  const reply = JSON.parse(
    (await op.locator(".live-responses-table .response-col_description pre").first().textContent())!,
  );
  expect(reply.uploaded_files.map((f: any) => [f.filename, f.upload_token, f.split_policy, f.has_password])).toEqual([
    ["a.pdf", "tok-a", "inherit", true],
    ["b.pdf", "tok-b", "single_document", true],
  ]);
  expect(JSON.stringify(reply)).not.toContain("secret-b");
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);
