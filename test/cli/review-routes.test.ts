/**
 * `docproc review` serves the server's review route module over the folder store: the answers the server gives
 * (page_index validation, If-Match as the version, `{detail}` errors, 404 for an unknown route) come from the same
 * code, and a correction rewrites the results file on disk. A real PDF processed by the CLI; a real HTTP listener.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { startLocalReview } from "../../src/cli/review-run";
import { runCli } from "./helpers";
import { removeAll, tempDir } from "../support/temp";

const FIXTURES = path.resolve(import.meta.dir, "../../fixtures");
const dirs: string[] = [];
let review: Awaited<ReturnType<typeof startLocalReview>>;
let base: string;
let id: string;
let out: string;

const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + url, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
};

beforeAll(async () => {
  const dir = tempDir("review-routes", dirs);
  copyFileSync(path.join(FIXTURES, "inbox/born-digital-invoice.pdf"), path.join(dir, "invoice.pdf"));
  out = path.join(dir, "out");
  const processed = await runCli(["process", path.join(dir, "invoice.pdf"), "--out", out, "--json"], {
    timeoutMs: 120_000,
  });
  expect(processed.code).toBe(0);
  id = JSON.parse(processed.stdout).files[0].transaction_id;
  review = await startLocalReview({
    folder: out,
    open: false,
    ocr: async () => {
      throw new Error("no OCR for a text PDF");
    },
    log: () => {},
  });
  base = review.url.replace(/\/review$/, "");
}, 180_000);

afterAll(async () => {
  await review?.stop();
  removeAll(dirs);
});

describe("docproc review over the server's review routes", () => {
  test("the page, the list, and the server's validation and error shapes", async () => {
    const page = await fetch(`${base}/review/${id}`);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect((await call("GET", "/transactions")).json.items.map((t: any) => t.transaction_id)).toEqual([id]);
    const bad = await call("GET", `/transactions/${id}/review/pages/first/image`);
    expect(bad).toEqual({ status: 400, json: { detail: 'page_index: expected a page number from 1, got "first"' } });
    const unknown = await call("GET", "/transactions/nope/review");
    expect(unknown).toEqual({ status: 404, json: { detail: "Transaction nope is not in this folder" } });
    expect((await call("GET", "/nowhere")).json.detail).toBe("Not found: no route for GET /nowhere");
    const noVersion = await call("POST", `/transactions/${id}/review`, { action: "finish" });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.detail).toStartWith("version:");
  });

  test("a correction with the version in If-Match rewrites the results file; the same version again is 409", async () => {
    const view = (await call("GET", `/transactions/${id}/review`)).json;
    const doc = view.documents[0].document_id;
    const body = { action: "set_field", document_id: doc, field_id: "customer_name", value: "Someone Else Ltd" };
    const done = await call("POST", `/transactions/${id}/review`, body, { "if-match": `"${view.version}"` });
    expect(done.status).toBe(200);
    expect(done.json.version).toBe(view.version + 1);
    const onDisk = JSON.parse(readFileSync(path.join(out, `${id}_data.json`), "utf8"));
    expect(onDisk.documents[0].fields.customer_name).toMatchObject({ value: "Someone Else Ltd", is_confirmed: true });
    const stale = await call("POST", `/transactions/${id}/review`, body, { "if-match": `"${view.version}"` });
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toContain(`changed since version ${view.version}`);
  });
});
