/**
 * `docproc review <results folder>` as a real child process: the folder `docproc process` wrote, the review page
 * and API on 127.0.0.1, a correction by clicking a word in chromium, the results file rewritten on disk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import sharp from "sharp";
import { runCli, spawnCli } from "../support/process";
import { makeTempDir } from "../support/temp";
import { FIXTURES } from "./helpers";

const dir = makeTempDir("review-cli");
const out = path.join(dir, "out");
let proc: ReturnType<typeof spawnCli>;
let base: string;
let id: string;
let browser: Browser;
const resultsFile = () => path.join(out, `${id}_data.json`);
const readResults = () => JSON.parse(readFileSync(resultsFile(), "utf8"));
const call = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(base + url, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
};

beforeAll(async () => {
  copyFileSync(path.join(FIXTURES, "inbox/born-digital-invoice.pdf"), path.join(dir, "invoice.pdf"));
  const processed = await runCli(["process", path.join(dir, "invoice.pdf"), "--out", out, "--json"], {
    timeoutMs: 120_000,
  });
  expect(processed.code).toBe(0);
  id = JSON.parse(processed.stdout).files[0].transaction_id;
  proc = spawnCli(["review", out, "--no-open"]);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!/http:\/\/127\.0\.0\.1:\d+\/review/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`docproc review exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  base = /http:\/\/127\.0\.0\.1:\d+/.exec(text)![0];
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
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
}, 180_000);

afterAll(async () => {
  await browser?.close();
  proc?.kill("SIGINT");
  await proc?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("docproc review", () => {
  test("lists the folder's results files and serves words and the page image read again from the original", async () => {
    const list = await call("GET", "/transactions?status=awaiting_input");
    expect(list.json.items.map((t: any) => t.transaction_id)).toEqual([id]);
    const view = await call("GET", `/transactions/${id}/review`);
    expect(view.status).toBe(200);
    expect(view.json.pages[0].words.length).toBeGreaterThan(50);
    const img = await fetch(`${base}${view.json.pages[0].image_url}`);
    expect(img.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([
      view.json.pages[0].image_transform.rasterized_width,
      view.json.pages[0].image_transform.rasterized_height,
    ]);
    expect((await call("GET", "/transactions/nope/review")).status).toBe(404);
  });

  test("clicking a word in the page fixes a field; the results file on disk is rewritten with last_human_review; a stale write is 409", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${base}/review/${id}`);
    await page.waitForSelector("#review:not([hidden]) .page img");
    expect(await page.locator("#login").isHidden()).toBe(true); // no sign-in on the loopback review
    await page.getByLabel(/^Customer name/).focus();
    const index = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".word title")).findIndex((t) => t.textContent === "YourCompany,"),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    await page.locator(".word").nth(index).click();
    await page.waitForFunction(
      () => (document.getElementById("field-customer_name") as HTMLInputElement).value === "YourCompany,",
    );
    await page.close();
    const onDisk = readResults();
    expect(onDisk.documents[0].fields.customer_name).toMatchObject({ value: "YourCompany,", is_confirmed: true });
    expect(onDisk.documents[0].fields.customer_name.bounding_boxes[0].page_index).toBe(1);
    expect(onDisk.transaction.last_human_review).toMatchObject({
      reviewed: true,
      action: "set_field",
      reviewer: { kind: "local" },
    });
    expect(readdirSync(out).filter((n) => n.endsWith("_data.json"))).toEqual([`${id}_data.json`]);

    const view = (await call("GET", `/transactions/${id}/review`)).json;
    const stale = await call("POST", `/transactions/${id}/review`, { version: view.version - 1, action: "finish" });
    expect(stale.status).toBe(409);
    const done = await call("POST", `/transactions/${id}/review`, { version: view.version, action: "finish" });
    expect(done.status).toBe(200);
    expect(readResults().transaction.last_human_review).toMatchObject({
      reviewed: true,
      finished: true,
      action: "finish",
    });
  }, 120_000);
});
