/**
 * Phone capture end to end in a real browser: Debian chromium (installed by .ci/run) driven by playwright-core with
 * a phone viewport, against the real server on a loopback port with the real pipeline (conversion + OCR).
 * Saves test-output/capture-page.png (pages added), capture-done.png and capture-expired.png for review.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import sharp from "sharp";
import { DEFAULT_CONFIG } from "../../src/server/config";
import { startServer, type RunningServer } from "../../src/server/start";
import { fsBlobStore } from "../../src/storage/files/blobs";
import { openDatabase, type Db } from "../../src/storage/schema/db";
import { blankPdf, captureForm, CORPUS } from "./helpers";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";
import { waitFor } from "../support/wait";

const ADMIN = "capture-browser-admin";
const OUT = path.resolve(import.meta.dir, "../../test-output");
const CHROMIUM = "/usr/bin/chromium";

let server: RunningServer;
let dir: string;
let db: Db;
let browser: Browser;
let phone: BrowserContext;
let project: string;
let key: string;

async function api(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = { "x-api-key": key },
) {
  const res = await fetch(server.url + url, requestInit(method, headers, body));
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const mint = async (body: Record<string, unknown> = {}) => {
  const r = await api("POST", `/tenants/default/projects/${project}/capture-tokens`, body);
  expect(r.status).toBe(201);
  return r.json as {
    token: string;
    transaction_id: string;
    capture_url: string;
    max_pages: number;
    expires_at: string;
  };
};

/** A corpus scan as a PNG "photo" with the given longest side. */
async function photo(name: string, side: number) {
  const buffer = await sharp(readFileSync(path.join(CORPUS, `${name}.png`)), { limitInputPixels: 50_000_000 })
    .resize(side, side, { fit: "inside" })
    .png()
    .toBuffer();
  return { name: `${name}.png`, mimeType: "image/png", buffer };
}

async function open(url: string): Promise<Page> {
  const page = await phone.newPage();
  await page.goto(url);
  return page;
}

async function waitCompleted(id: string): Promise<{ status: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await api("GET", `/transactions/${id}?timeout=20`);
    if (r.status === 200 && (r.json.status === "completed" || r.json.status === "failed")) return r.json;
    if (Date.now() > deadline) throw new Error(`transaction ${id} not finished: ${JSON.stringify(r.json)}`);
  }
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)`);
  dir = makeTempDir("capture-e2e");
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataDir: dir,
    workers: 1,
    config: { ...DEFAULT_CONFIG, adminApiKey: ADMIN, longPollRecheckMs: 200 },
    log: () => {},
  });
  db = openDatabase(path.join(dir, "docproc.db"));
  const admin = { "x-api-key": ADMIN };
  project = (await api("POST", "/tenants/default/projects", { name: "Phone capture", description: "" }, admin)).json
    .project_id;
  await api("POST", "/admin/clients", { client_id: "front-desk", name: "Front desk" }, admin);
  key = (await api("POST", "/admin/clients/front-desk/keys", { description: "capture e2e" }, admin)).json.api_key;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-GB",
  });
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  db?.close();
  await server?.stop(2000);
  rmSync(dir, { recursive: true, force: true });
});

describe("capture page in chromium on a phone viewport", () => {
  test("three photos added, reordered, one extra deleted, sent: the transaction completes with three pages; the code is then used up", async () => {
    const t = await mint({ label: "e2e" });
    const page = await open(t.capture_url);
    await page.waitForSelector("#capture:not([hidden])");
    expect(new URL(page.url()).hash).toBe(""); // the token left the address bar
    expect(await page.textContent("#max")).toBe("20");
    const [a, b, c, extra] = await Promise.all([
      photo("FlipkartInvoice", 789),
      photo("SammyMaystoneLinesTest", 1000),
      photo("AmazonWebServices", 3000),
      photo("oyo", 900),
    ]);
    await page.setInputFiles("#camera", [a, b]);
    await page.waitForFunction(() => document.querySelectorAll("#pages .page").length === 2);
    await page.setInputFiles("#camera", [c, extra]);
    await page.waitForFunction(() => document.querySelectorAll("#pages .page").length === 4);
    await page.getByRole("button", { name: "Delete page 4" }).click();
    await page.getByRole("button", { name: "Move page 3 earlier" }).click(); // order now a, c, b
    expect(await page.textContent("#count")).toBe("3");
    expect(await page.textContent("#send")).toBe("Send 3 pages");
    await page.screenshot({ path: path.join(OUT, "capture-page.png"), fullPage: true });

    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { progressSeen: string[] }).progressSeen = []);
      const bar = document.getElementById("progress")!;
      new MutationObserver(() => seen.push(bar.hidden ? "hidden" : bar.textContent!.trim())).observe(bar, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await page.click("#send");
    await page.waitForSelector("#done:not([hidden])", { timeout: 30_000 });
    expect(await page.textContent("#done-text")).toContain("3 pages were sent");
    expect(await page.textContent("#done-ref")).toBe(t.transaction_id);
    const progressSeen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(progressSeen).toContain("Uploading… 100%"); // from XMLHttpRequest upload.onprogress
    await page.screenshot({ path: path.join(OUT, "capture-done.png") });

    expect(await waitCompleted(t.transaction_id)).toMatchObject({ status: "completed" });
    const pages = db
      .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM pages WHERE transaction_id = ?")
      .get(t.transaction_id);
    expect(pages?.n).toBe(3);
    // Order as arranged on the phone; every photo re-encoded as JPEG on the phone, the large one downscaled to 2000 px.
    const files = db
      .query<{ blob_hash: string; content_type: string }, [string]>(
        "SELECT blob_hash, content_type FROM source_files WHERE transaction_id = ? ORDER BY file_index",
      )
      .all(t.transaction_id);
    const blobs = fsBlobStore(path.join(dir, "blobs"));
    const sizes = await Promise.all(files.map(async (f) => sharp(await blobs.get(f.blob_hash)).metadata()));
    expect(sizes.map((m) => m.format)).toEqual(["jpeg", "jpeg", "jpeg"]);
    expect(sizes.map((m) => Math.max(m.width!, m.height!))).toEqual([789, 2000, 1000]);

    const again = await open(t.capture_url);
    await again.waitForSelector("#problem:not([hidden])");
    expect(await again.textContent("#problem-title")).toBe("This code was already used");
    const direct = await api(
      "POST",
      "/capture/submit",
      captureForm(t.token, [{ name: "x.jpg", data: new Uint8Array(a.buffer) }]),
      {},
    );
    expect(direct.status).toBe(410);
    expect(direct.json.state).toBe("consumed");
  }, 90_000);

  test("max_pages is enforced on the page (extra photos refused, buttons disabled) and by the server (413)", async () => {
    const t = await mint({ page_limit: 2 });
    const page = await open(t.capture_url);
    await page.waitForSelector("#capture:not([hidden])");
    const shots = await Promise.all([
      photo("FlipkartInvoice", 600),
      photo("oyo", 600),
      photo("SammyMaystoneLinesTest", 600),
    ]);
    await page.setInputFiles("#camera", shots);
    await page.waitForSelector("#message:not([hidden])");
    expect(await page.locator("#pages .page").count()).toBe(2);
    expect(await page.textContent("#message")).toContain("at most 2 pages: 1 file was not added");
    expect(await page.locator("#camera").isDisabled()).toBe(true);
    expect(await page.locator("#pick").isDisabled()).toBe(true);
    const direct = await api(
      "POST",
      "/capture/submit",
      captureForm(
        t.token,
        shots.map((s) => ({ name: s.name, data: new Uint8Array(s.buffer) })),
      ),
      {},
    );
    expect(direct.status).toBe(413);
    expect(direct.json.detail).toBe("3 pages submitted; this capture code accepts at most 2");
  }, 30_000);

  test("an unscanned code expires at expires_at: the page says so when opened late", async () => {
    const t = await mint({ ttl_seconds: 1 });
    await waitFor("the code's expiry", () => Date.now() > Date.parse(t.expires_at));
    const page = await open(t.capture_url);
    await page.waitForSelector("#problem:not([hidden])");
    expect(await page.textContent("#problem-title")).toBe("This code has expired");
    await page.screenshot({ path: path.join(OUT, "capture-expired.png") });
    expect(
      (await api("GET", `/tenants/default/projects/${project}/capture-tokens/${t.transaction_id}`)).json,
    ).toMatchObject({ state: "expired", scanned_at: null });
  }, 30_000);

  test("a scanned code expires when its window ends: the page stops, and a late submit is refused (410)", async () => {
    const t = await mint({ ttl_seconds: 2 });
    const page = await open(t.capture_url);
    await page.waitForSelector("#capture:not([hidden])");
    await page.setInputFiles("#camera", [await photo("FlipkartInvoice", 500)]);
    await page.waitForSelector("#pages .page");
    await page.waitForSelector("#problem:not([hidden])", { timeout: 5000 });
    expect(await page.textContent("#problem-title")).toBe("This code has expired");
    const late = await api(
      "POST",
      "/capture/submit",
      captureForm(t.token, [{ name: "p.png", data: new Uint8Array((await photo("FlipkartInvoice", 500)).buffer) }]),
      {},
    );
    expect(late.status).toBe(410);
    expect(late.json.state).toBe("expired");
    expect((await api("GET", `/transactions/${t.transaction_id}`)).status).toBe(404);
  }, 30_000);
  test("a PDF picked from files counts its pages (compressed object streams too) against max_pages and is sent with the photo; other files are refused", async () => {
    const t = await mint({ page_limit: 3 });
    const page = await open(t.capture_url);
    await page.waitForSelector("#capture:not([hidden])");
    await page.setInputFiles("#pick", [
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a document") },
    ]);
    await page.waitForSelector("#message:not([hidden])");
    expect(await page.textContent("#message")).toBe("Only photos and PDF files can be sent.");
    await page.setInputFiles("#camera", [await photo("FlipkartInvoice", 700)]);
    await page.waitForSelector("#pages .page");
    expect(await page.locator("#message").isHidden()).toBe(true);
    const pdf = { name: "contract.pdf", mimeType: "application/pdf", buffer: Buffer.from(await blankPdf(2)) };
    await page.setInputFiles("#pick", [pdf]);
    await page.waitForFunction(() => document.querySelectorAll("#pages .page").length === 2);
    expect(await page.textContent("#count")).toBe("3");
    expect(await page.locator("#pages .page").nth(1).locator(".badge").textContent()).toBe("2–3");
    expect(await page.locator("#pick").isDisabled()).toBe(true);
    await page.click("#send");
    await page.waitForSelector("#done:not([hidden])", { timeout: 30_000 });
    expect(await page.textContent("#done-text")).toContain("3 pages were sent");
    expect(await waitCompleted(t.transaction_id)).toMatchObject({ status: "completed" }); // on failure: shows error_message
    const pages = db
      .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM pages WHERE transaction_id = ?")
      .get(t.transaction_id);
    expect(pages?.n).toBe(3);
  }, 60_000);
});
