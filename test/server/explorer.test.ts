/**
 * The API explorer in a real browser (Debian chromium, installed by .ci/run, driven by playwright-core): it loads
 * with no request leaving this server and no console error, and sends a multipart upload with the aligned
 * upload_tokens, split_policies and passwords fields.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { KEY, testApp } from "./helpers";

const CHROMIUM = "/usr/bin/chromium";
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
});
afterAll(async () => {
  await browser?.close();
  await t?.app.stop();
  await t?.close();
});

test("the explorer works offline and uploads files with tokens, split policies and masked passwords", async () => {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
  const tx = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  const outside: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => void (r.url().startsWith(base) || outside.push(r.url())));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(String(e)));
  await page.goto(`${base}/api-docs`);
  await page.waitForSelector("details");
  expect(await page.locator("details").count()).toBeGreaterThan(20);
  await page.fill("#key", KEY);
  await page.dispatchEvent("#key", "change");

  const op = page
    .locator("details", {
      has: page.locator("summary", { hasText: /^post\/transactions\/\{transaction_id\}\/source-files/ }),
    })
    .first();
  await op.locator("summary").first().click();
  await op.locator("input.p").first().fill(tx);
  await op.locator("input[type=file]").setInputFiles([
    { name: "a.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 a") },
    { name: "b.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 b") },
  ]);
  const areas = op.locator("textarea");
  await areas.nth(0).fill("tok-a\ntok-b");
  await areas.nth(1).fill("inherit\nsingle_document");
  await areas.nth(2).fill("\nsecret-b");
  expect(await areas.nth(2).evaluate((e) => getComputedStyle(e).getPropertyValue("-webkit-text-security"))).toBe(
    "disc",
  );
  await op.locator("button").first().click();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("pre")).some((p) => /^\d{3} /.test(p.textContent ?? "")),
  );
  const shown = (await op.locator("pre").first().textContent())!; // the reply; the others are response examples
  expect(shown).toStartWith("200");
  expect(shown).not.toContain("secret-b");
  const reply = JSON.parse(shown.slice(shown.indexOf("{")));
  expect(reply.uploaded_files.map((f: any) => [f.upload_token, f.split_policy, f.has_password])).toEqual([
    ["tok-a", "inherit", false],
    ["tok-b", "single_document", true],
  ]);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
}, 60_000);
