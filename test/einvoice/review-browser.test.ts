/**
 * E-invoice rule messages in the review page, in a real browser (Debian chromium + playwright-core) against the real
 * server and pipeline on a loopback port: an XRechnung without its invoice number (BT-1) stops at a Review step
 * that waits for validation errors; the page shows the official BR-02 message beside the invoice number field, and
 * the rules that concern no field (the summary, the Peppol rules not evaluated) in the document's problem list.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/chromium";
import { mergeOverDefault } from "../../src/core/project";
import { makeTempDir } from "../support/temp";
import { startReviewServer } from "../review/helpers";
import { RULES_DIR } from "../core/einvoice/validate/cases";

let s: Awaited<ReturnType<typeof startReviewServer>>;
let browser: Browser;
let txId: string;
const dir = makeTempDir("einv-review");

beforeAll(async () => {
  s = await startReviewServer({ prefix: "einv-review" });
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme", name: "Acme" })).status).toBe(201);
  const user = { tenant_id: "acme", username: "erin", password: "correct horse battery" };
  expect((await s.admin("POST", "/admin/users", user)).status).toBe(201);
  const workflow = [
    { type: "split" },
    { type: "classify" },
    { type: "extract" },
    { type: "validate" },
    { type: "review", enabled: true, when: "validation_errors" },
    { type: "export" },
  ];
  const project = (
    await s.admin("POST", "/tenants/acme/projects", { name: "E-invoices", settings: mergeOverDefault({ workflow }) })
  ).json.project_id;
  const xml = readFileSync(path.join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"), "utf8");
  const file = path.join(dir, "xrechnung-no-number.xml");
  writeFileSync(file, xml.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, ""));
  txId = await s.submit("acme", project, file);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a fatal e-invoice rule stops the transaction for review and its message stands beside the field it names", async () => {
  expect((await s.admin("GET", `/transactions/${txId}`)).json.status).toBe("awaiting_input");
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  const failed: string[] = [];
  page.on("pageerror", (e) => failed.push(e.message));
  await page.goto(`${s.base}/review`);
  await page.getByLabel("Tenant").fill("acme");
  await page.getByLabel("User name").fill("erin");
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.click(`a[href="/review/${txId}"]`);
  await page.waitForSelector("#review:not([hidden]) #msg-invoice_number");

  const beside = page.locator("#msg-invoice_number");
  expect(await beside.textContent()).toContain("[BR-02]-An Invoice shall have an Invoice number (BT-1).");
  expect(await beside.getAttribute("class")).toContain("error");
  const problems = await page.locator("#doc-problems li").allTextContents();
  expect(problems.some((p) => /xrechnung-no-number\.xml: ubl-invoice e-invoice .* invalid, 1 fatal/.test(p))).toBe(
    true,
  );
  // The Peppol rules XRechnung adds are not shipped: the summary counts them as not evaluated (information, so a
  // valid XRechnung stays success; the rule result itself carries the reason).
  expect(problems.some((p) => /1 rule\(s\) not evaluated/.test(p))).toBe(true);
  // The message is not repeated in the list: it is shown where the field is.
  expect(problems.some((p) => p.includes("[BR-02]"))).toBe(false);
  expect(failed).toEqual([]);
}, 120_000);
