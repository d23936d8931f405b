/**
 * The review page end to end in a real browser (Debian chromium + playwright-core) against the real server on a
 * loopback port with the real pipeline (embedded OCR): sign in, open a transaction awaiting review, fix a wrong
 * total of a phone photo by clicking the right word on the page image, confirm, finish with the keyboard.
 * Saves test-output/review-laptop.png and review-tablet.png (docs/review.md shows them).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/chromium";
import { mergeOverDefault } from "../../src/core/project";
import { markAwaitingInput } from "../../src/storage/transactions/transactions";
import { startReceiver, type Receiver } from "../core/notify/receiver";
import { startReviewServer } from "./helpers";

const OUT = path.resolve(import.meta.dir, "../../test-output");
let s: Awaited<ReturnType<typeof startReviewServer>>;
let browser: Browser;
let project: string;
let txId: string;
let receiver: Receiver;

beforeAll(async () => {
  s = await startReviewServer({ prefix: "review-browser" });
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme", name: "Acme" })).status).toBe(201);
  expect(
    (await s.admin("POST", "/admin/users", { tenant_id: "acme", username: "alice", password: "correct horse battery" }))
      .status,
  ).toBe(201);
  receiver = startReceiver();
  // Review pauses every transaction; a Notification node after Export fires only once the review is finished.
  const workflow = [
    { type: "split" },
    { type: "classify" },
    { type: "extract" },
    { type: "validate" },
    { type: "review", enabled: true, when: "always", instructions: "Check the amounts" },
    { type: "export" },
    { type: "notification", id: "after-review", activity: { webhook_url: receiver.url("/hook") } },
  ];
  project = (
    await s.admin("POST", "/tenants/acme/projects", {
      name: "Invoices",
      description: "",
      settings: mergeOverDefault({ workflow }),
    })
  ).json.project_id;
  txId = await s.submit("acme", project, "inbox/phone-photo.jpg");
  expect((await s.admin("GET", `/transactions/${txId}`)).json).toMatchObject({
    status: "awaiting_input",
    review_metadata: { instructions: "Check the amounts" },
  });
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
}, 300_000);

afterAll(async () => {
  receiver?.stop();
  await browser?.close();
  await s?.stop();
});

describe("review page in chromium", () => {
  test("a reviewer signs in, fixes a wrong total by clicking the printed total, confirms and finishes; the export carries it", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "en-GB" });
    const page = await ctx.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    page.on("pageerror", (e) => failed.push(`pageerror: ${e.message}`));
    await page.goto(`${s.base}/review`);
    // The first screen is the sign-in form alone: no empty review workspace or file list under it.
    await page.waitForSelector("#login:not([hidden])");
    expect(await page.locator("#review").isVisible()).toBe(false);
    expect(await page.locator("#queue").isVisible()).toBe(false);
    await page.getByLabel("Tenant").fill("acme");
    await page.getByLabel("User name").fill("alice");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForSelector("#queue:not([hidden])");
    expect(await page.locator("#review").isVisible()).toBe(false);
    await page.click(`a[href="/review/${txId}"]`);
    await page.waitForSelector("#review:not([hidden]) .page img");
    expect(await page.locator(".fbox").count()).toBeGreaterThan(5); // every field box is drawn
    // Focus starts on the first flagged field (a red dot), not on the first empty one.
    await page.waitForFunction(() => document.activeElement?.id.startsWith("field-"));
    const focus = await page.evaluate(() => {
      const rows = Array.from(document.querySelectorAll<HTMLElement>("#fields .field"));
      const flagged = rows.find((r) => r.querySelector(".dot.bad"));
      return { active: document.activeElement!.id, flagged: flagged ? `field-${flagged.dataset.field}` : null };
    });
    expect(focus.flagged).not.toBeNull();
    expect(focus.active).toBe(focus.flagged!);

    // A wrong total typed in shows the validation message beside it; clicking the printed total on the page fixes it.
    const total = page.getByLabel(/^Total amount/);
    await total.fill("7.00");
    await total.press("Enter");
    await page.waitForFunction(
      () =>
        /7/.test((document.getElementById("msg-total_amount") as HTMLElement).textContent ?? "") &&
        (document.getElementById("msg-total_amount") as HTMLElement).textContent !== "",
    );
    expect(await page.locator("#msg-total_amount").textContent()).toMatch(/subtotal|total/i);
    await total.focus();
    expect(await page.locator(".fbox.selected").count()).toBeGreaterThan(0);
    const index = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".word title")).findIndex((t) => /^(€\s?)?717[.,]97$/.test(t.textContent!)),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const word = page.locator(".word").nth(index);
    const wordX = Number(await word.getAttribute("x"));
    await word.scrollIntoViewIfNeeded();
    await word.click();
    await page.waitForFunction(
      () => (document.getElementById("field-total_amount") as HTMLInputElement).value === "717.97",
    );
    expect(await page.locator('.field[data-field="total_amount"] .ok').textContent()).toContain("confirmed");
    expect(await page.locator("#msg-total_amount").textContent()).toBe("");
    await page.screenshot({ path: path.join(OUT, "review-laptop.png") });

    // Enter confirms the focused field and moves on; Confirm document; Ctrl+Enter finishes.
    await total.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "field-purchase_order_number");
    await page.getByRole("button", { name: "Confirm document" }).click();
    await page.waitForFunction(() => document.getElementById("status")!.textContent === "Document confirmed.");
    // Nothing is sent while the review is open: checked before finishing, since on an idle machine the resumed run
    // can export and deliver before the page has even shown that the review finished.
    expect(receiver.received).toHaveLength(0);
    expect((await s.admin("GET", `/transactions/${txId}`)).json.status).toBe("awaiting_input");
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(() => /Review finished/.test(document.getElementById("status")!.textContent!));
    expect(failed).toEqual([]);

    const t = await s.waitFor(txId, ["completed", "failed"]);
    expect(t.status).toBe("completed");
    await receiver.arrived(1, 10_000).catch(() => {}); // none within 10 s shows as a length of 0 below
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: "transaction.step_reached",
      transaction_id: txId,
    });
    const manifest = (await s.admin("GET", `/transactions/${txId}/exports`)).json;
    const exported = (
      await s.admin("GET", `/transactions/${txId}/exports/download/${manifest.profiles.json.files[0].filename}`)
    ).json;
    const field = exported.documents[0].fields.total_amount;
    expect(field).toMatchObject({ value: 717.97, is_confirmed: true, review_required: false });
    expect(field.bounding_boxes).toHaveLength(1);
    expect(field.bounding_boxes[0].page_index).toBe(1);
    expect(field.bounding_boxes[0].coordinates[0]).toBe(wordX);
    expect(exported.documents[0].classification.confirmed).toBe(true);
    expect(exported.transaction.last_human_review).toMatchObject({
      reviewed: true,
      finished: true,
      action: "finish",
      reviewer: { id: "alice", kind: "user" },
    });
    const changes = exported.transaction.last_human_review.changes.flatMap((c: any) => c.changes);
    expect(changes).toContainEqual({ path: "fields.total_amount.value", before: 7, after: 717.97 });
    await ctx.close();
  }, 120_000);

  test("the first screen on a phone and a laptop is the sign-in form alone", async () => {
    for (const [name, viewport] of [
      ["review-first-screen-phone.png", { width: 390, height: 844 }],
      ["review-first-screen-laptop.png", { width: 1366, height: 900 }],
    ] as const) {
      const ctx = await browser.newContext({ viewport, locale: "en-GB" });
      const page = await ctx.newPage();
      await page.goto(`${s.base}/review`);
      await page.waitForSelector("#login:not([hidden])");
      expect(await page.locator("#review").isVisible()).toBe(false);
      expect(await page.locator("#queue").isVisible()).toBe(false);
      const form = (await page.locator("#login").boundingBox())!;
      expect(form.x).toBeGreaterThanOrEqual(0);
      expect(form.x + form.width).toBeLessThanOrEqual(viewport.width); // no sideways scrolling on a phone
      await page.screenshot({ path: path.join(OUT, name) });
      await ctx.close();
    }
  });

  test("on a tablet the page sits above the fields; tapping a word fills the selected field; zoom and rotate keep boxes on their words", async () => {
    const id = await s.submit("acme", project, "inbox/born-digital-invoice.pdf");
    markAwaitingInput(s.t.data.db, id, new Date().toISOString(), {
      step_name: "review",
      instructions: "Check the invoice number",
      timeout_hours: 24,
    });
    const ctx = await browser.newContext({
      viewport: { width: 820, height: 1180 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      locale: "en-GB",
    });
    const page = await ctx.newPage();
    await page.goto(`${s.base}/review/${id}`);
    await page.getByLabel("Tenant").fill("acme");
    await page.getByLabel("User name").fill("alice");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForSelector("#review:not([hidden]) .page img");
    const viewer = (await page.locator(".viewer").boundingBox())!;
    const side = (await page.locator(".side").boundingBox())!;
    expect(side.y).toBeGreaterThanOrEqual(viewer.y + viewer.height - 1); // stacked, not side by side
    expect((await page.locator(".page").boundingBox())!.width).toBeLessThanOrEqual(820);

    const number = page.getByLabel(/^Invoice number/);
    await number.focus();
    const index = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".word title")).findIndex((t) => t.textContent === "Mitchell"),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const word = page.locator(".word").nth(index);
    await word.scrollIntoViewIfNeeded();
    await word.tap();
    await page.waitForFunction(
      () => (document.getElementById("field-invoice_number") as HTMLInputElement).value === "Mitchell",
    );

    // The selected field's box is drawn over the tapped word, also after zooming in and turning the page.
    const overlap = async () => {
      const a = (await page.locator(".fbox.selected").first().boundingBox())!;
      const b = (await word.boundingBox())!;
      return (
        Math.abs(a.x + a.width / 2 - (b.x + b.width / 2)) < 3 && Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < 3
      );
    };
    expect(await overlap()).toBe(true);
    const before = (await page.locator(".page").boundingBox())!;
    await page.getByRole("button", { name: "Zoom in" }).click();
    await page.getByRole("button", { name: "Rotate pages 90 degrees clockwise" }).click();
    const after = (await page.locator(".page").boundingBox())!;
    expect(after.height / after.width).toBeCloseTo(before.width / before.height, 2); // turned: portrait became landscape
    expect(after.width).toBeCloseTo(before.width * 1.25, -1); // zoom is relative to the page width fitting the view
    expect(await overlap()).toBe(true);
    await page.getByRole("button", { name: "Rotate pages 90 degrees clockwise" }).click();
    await page.getByRole("button", { name: "Rotate pages 90 degrees clockwise" }).click();
    await page.getByRole("button", { name: "Rotate pages 90 degrees clockwise" }).click();
    await page.getByRole("button", { name: "Fit page width" }).click();
    await page.locator(".pages").evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, "review-tablet.png") });
    const view = (await s.admin("GET", `/transactions/${id}/review`)).json;
    expect(view.documents[0].fields.invoice_number).toMatchObject({ value: "Mitchell", is_confirmed: true });
    await ctx.close();
  }, 120_000);
});
