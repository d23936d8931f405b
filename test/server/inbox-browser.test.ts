/**
 * The web inbox at / in a real browser (Debian chromium + playwright-core) against the real server and pipeline on a
 * loopback port: sign in, upload a PDF to a project, watch it complete, download its JSON export; upload to a
 * project with a Review step and open the transaction in review without signing in again. Keyboard only for the
 * sign-in and the upload. Saves test-output/inbox-laptop.png and inbox-phone.png (docs/inbox.md shows them).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../support/chromium";
import { mergeOverDefault } from "../../src/core/project";
import { FIXTURES, startReviewServer } from "../review/helpers";

const OUT = path.resolve(import.meta.dir, "../../test-output");
let s: Awaited<ReturnType<typeof startReviewServer>>;
let browser: Browser;

beforeAll(async () => {
  s = await startReviewServer({ prefix: "inbox-browser" });
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme", name: "Acme" })).status).toBe(201);
  expect(
    (await s.admin("POST", "/admin/users", { tenant_id: "acme", username: "bob", password: "correct horse battery" }))
      .status,
  ).toBe(201);
  expect((await s.admin("POST", "/tenants/acme/projects", { name: "Invoices", description: "" })).status).toBe(201);
  const workflow = [
    { type: "split" },
    { type: "classify" },
    { type: "extract" },
    { type: "validate" },
    { type: "review", enabled: true, when: "always", instructions: "Check it" },
    { type: "export" },
  ];
  expect(
    (
      await s.admin("POST", "/tenants/acme/projects", {
        name: "Reviewed",
        description: "",
        settings: mergeOverDefault({ workflow }),
      })
    ).status,
  ).toBe(201);
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

async function signIn(page: Page) {
  await page.goto(`${s.base}/`);
  await page.waitForSelector("#login:not([hidden])");
  expect(await page.locator("#inbox").isVisible()).toBe(false);
  await page.getByLabel("Tenant").focus();
  await page.keyboard.type("acme");
  await page.keyboard.press("Tab");
  await page.keyboard.type("bob");
  await page.keyboard.press("Tab");
  await page.keyboard.type("correct horse battery");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#inbox:not([hidden])");
}

async function upload(page: Page, project: string, file: string) {
  await page.getByLabel("Project").selectOption({ label: project });
  await page.getByLabel(/^Files/).setInputFiles(path.join(FIXTURES, file));
  await page.getByLabel(/^Files/).focus();
  await page.keyboard.press("Tab"); // to the upload button
  await page.keyboard.press("Enter");
}

describe("web inbox in chromium", () => {
  test("sign in, upload, watch it complete, download the JSON export; a reviewed project opens in review", async () => {
    const ctx = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: "en-GB",
      acceptDownloads: true,
    });
    const page = await ctx.newPage();
    const failed: string[] = [];
    page.on("pageerror", (e) => failed.push(`pageerror: ${e.message}`));
    await signIn(page);
    expect(await page.locator("#project option").allTextContents()).toEqual(
      expect.arrayContaining(["Invoices", "Reviewed"]),
    );

    await upload(page, "Invoices", "inbox/born-digital-invoice.pdf");
    const row = page.locator("#list li", { hasText: "born-digital-invoice.pdf" });
    await row.locator(".badge.completed").waitFor({ timeout: 90_000 });
    await row.getByRole("button", { name: "Downloads" }).click();
    const json = row.getByRole("button", { name: /_data\.json$/ });
    await json.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), json.click()]);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(exported.transaction.source_file_names).toEqual(["born-digital-invoice.pdf"]);
    expect(exported.documents.length).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(OUT, "inbox-laptop.png") });

    await upload(page, "Reviewed", "inbox/phone-photo.jpg");
    const reviewed = page.locator("#list li", { hasText: "phone-photo.jpg" });
    await reviewed.locator(".badge.awaiting_input").waitFor({ timeout: 120_000 });
    await reviewed.getByRole("link", { name: "Review" }).click();
    // The review page takes the inbox's session: the workspace opens, not the sign-in form.
    await page.waitForSelector("#review:not([hidden]) .page img");
    expect(await page.locator("#login").isVisible()).toBe(false);
    expect(failed).toEqual([]);
    await ctx.close();
  }, 240_000);

  test("on a phone the inbox fits the width and lists what was uploaded", async () => {
    const ctx = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: "en-GB",
    });
    const page = await ctx.newPage();
    await signIn(page);
    await page.locator("#list li").first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390); // no sideways scrolling
    await page.screenshot({ path: path.join(OUT, "inbox-phone.png"), fullPage: true });
    await ctx.close();
  });

  test("JSON clients still get the service's facts at /", async () => {
    const r = await fetch(`${s.base}/`, { headers: { accept: "application/json" } });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ name: "docproc", links: { "api-docs": "API explorer" } });
  });
});
