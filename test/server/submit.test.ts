import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import path from "node:path";
import { form, KEY, testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
afterEach(async () => t?.close());

async function project() {
  const p = await t.call("POST", "/tenants/default/projects", { name: "Invoices", description: "AP inbox" });
  expect(p.status).toBe(201);
  return p.json.project_id as string;
}

async function transaction(body: unknown = {}) {
  const pid = await project();
  const c = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, body);
  expect(c.status).toBe(201);
  return c.json.transaction_id as string;
}

const blobCount = () => {
  try {
    return readdirSync(path.join(t.dir, "blobs", "sha256"), { recursive: true }).filter((f) => String(f).length > 10)
      .length;
  } catch {
    return 0;
  }
};

describe("authentication", () => {
  test("answers 401 without a key or with a wrong one, and leaves /health public", async () => {
    t = testApp();
    expect((await t.call("GET", "/transactions", undefined, { "x-api-key": "" })).status).toBe(401);
    const wrong = await t.call("GET", "/transactions", undefined, { "x-api-key": "nope" });
    expect(wrong).toMatchObject({ status: 401, json: { detail: "Invalid API key" } });
    expect((await t.call("GET", "/health", undefined, { "x-api-key": "" })).status).toBe(200);
    expect((await t.call("GET", "/transactions", undefined, { "x-api-key": KEY })).status).toBe(200);
  });
});

describe("projects", () => {
  test("creates, lists, reads, and bumps project_version on every update", async () => {
    t = testApp();
    const pid = await project();
    expect((await t.call("GET", "/tenants/default/projects")).json.items.map((p: any) => p.project_id)).toEqual([pid]);
    const p = await t.call("GET", `/tenants/default/projects/${pid}`);
    expect(p.json).toMatchObject({ name: "Invoices", description: "AP inbox", project_version: 1 });
    const settings = p.json.settings;
    expect((await t.call("PATCH", `/tenants/default/projects/${pid}`, { name: "AP" })).json.project_version).toBe(2);
    expect((await t.call("PUT", `/tenants/default/projects/${pid}/settings`, settings)).json.project_version).toBe(3);
    const bad = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, { classes: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toContain("classes");
    expect((await t.call("GET", `/tenants/default/projects/unknown`)).status).toBe(404);
  });

  test("rejects a project without a name, naming the field", async () => {
    t = testApp();
    const r = await t.call("POST", "/tenants/default/projects", { description: 3 });
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain("name");
    expect(r.json.detail).toContain("description");
  });
});

describe("create and upload", () => {
  test("create answers the spec fields; unknown project is 404; bad dataset and page_limit are 400 naming them", async () => {
    t = testApp();
    const pid = await project();
    const c = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {
      correlation_id: "po-1",
      page_limit: 2,
      dataset_id: "playground",
    });
    expect(c.json).toMatchObject({ tenant_id: "default", project_id: pid, status: "created", correlation_id: "po-1" });
    expect(c.json.files_url).toBe(`/transactions/${c.json.transaction_id}/source-files`);
    expect(c.json.start_url).toBe(`/transactions/${c.json.transaction_id}/start`);
    expect((await t.call("POST", `/tenants/default/projects/nope/transactions`, {})).status).toBe(404);
    const bad = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {
      dataset_id: "staging",
      page_limit: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toContain("dataset_id");
    expect(bad.json.detail).toContain("page_limit");
    expect((await t.call("POST", `/tenants/default/projects/${pid}/transactions`, "{oops")).json.detail).toBe(
      "Request body is not valid JSON",
    );
  });

  test("a repeated upload token returns the original index and stores nothing new; a repeated name is renamed", async () => {
    t = testApp();
    const id = await transaction();
    const first = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form([{ name: "scan.pdf", body: "one" }], { upload_tokens: ["tok-1"] }),
    );
    expect(first.json.uploaded_files[0]).toMatchObject({
      index: 0,
      filename: "scan.pdf",
      file_name: "scan.pdf",
      size: 3,
      content_type: "application/pdf",
    });
    const blobs = blobCount();
    const again = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form(
        [
          { name: "scan.pdf", body: "one-retry" },
          { name: "scan.pdf", body: "two" },
        ],
        { upload_tokens: ["tok-1", "tok-2"] },
      ),
    );
    expect(again.json.uploaded_files.map((f: any) => [f.index, f.filename, f.duplicate])).toEqual([
      [0, "scan.pdf", true],
      [1, "scan_1.pdf", false],
    ]);
    expect(again.json).toMatchObject({ total_files: 2, uploaded_count: 2, failed_count: 0 });
    expect(blobCount()).toBe(blobs + 1);
  });

  test("file_index places one-at-a-time uploads; an index clash lands in failed_files", async () => {
    t = testApp();
    const id = await transaction();
    await t.call("POST", `/transactions/${id}/source-files?file_index=1`, form([{ name: "b.pdf", body: "b" }]));
    await t.call("POST", `/transactions/${id}/source-files?file_index=0`, form([{ name: "a.pdf", body: "a" }]));
    const clash = await t.call(
      "POST",
      `/transactions/${id}/source-files?file_index=1`,
      form([{ name: "c.pdf", body: "c" }]),
    );
    expect(clash.json).toMatchObject({ uploaded_count: 0, failed_count: 1, total_files: 2 });
    expect(clash.json.failed_files[0].error).toContain("already used");
    const listed = await t.call("GET", `/transactions/${id}/source-files`);
    expect(listed.json.files.map((f: any) => [f.index, f.filename])).toEqual([
      [0, "a.pdf"],
      [1, "b.pdf"],
    ]);
    expect(listed.json.total_files).toBe(2);
    expect(
      (await t.call("POST", `/transactions/${id}/source-files?file_index=-1`, form([{ name: "c.pdf", body: "c" }])))
        .status,
    ).toBe(400);
  });

  test("rejects an unknown split policy with 400 listing the allowed values, storing nothing", async () => {
    t = testApp();
    const id = await transaction();
    const r = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form(
        [
          { name: "a.pdf", body: "a" },
          { name: "b.pdf", body: "b" },
        ],
        { split_policies: ["inherit", "per_page"] },
      ),
    );
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain("inherit, single_document, self_contained");
    expect(r.json.detail).toContain('"per_page" at position 1');
    expect(blobCount()).toBe(0);
  });

  test("answers 413 for too many files, a file too large, or a body above the limit", async () => {
    t = testApp({ config: { maxFilesPerUpload: 2, maxFileBytes: 10, maxBodyBytes: 2000 } });
    const id = await transaction();
    const many = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form([1, 2, 3].map((n) => ({ name: `${n}.pdf`, body: "x" }))),
    );
    expect(many.status).toBe(413);
    expect(many.json.detail).toContain("at most 2");
    const big = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form([{ name: "big.pdf", body: "x".repeat(11) }]),
    );
    expect(big.status).toBe(413);
    expect(big.json.detail).toContain("big.pdf");
    const body = await t.call(
      "POST",
      `/transactions/${id}/source-files`,
      form([{ name: "a.pdf", body: "x".repeat(5000) }]),
      { "content-length": "5300" },
    );
    expect(body.status).toBe(413);
    expect(body.json.detail).toContain("2000-byte limit");
  });
});

describe("start and one-step process", () => {
  test("start queues once; a repeated start is 400 'Cannot start transaction in queued state'", async () => {
    t = testApp();
    const id = await transaction();
    expect((await t.call("POST", `/transactions/${id}/start`)).json.detail).toContain("no source files");
    await t.call("POST", `/transactions/${id}/source-files`, form([{ name: "a.pdf", body: "a" }]));
    const s = await t.call("POST", `/transactions/${id}/start`, {});
    expect(s.json).toMatchObject({
      transaction_id: id,
      status: "processing",
      poll_url: `/transactions/${id}?timeout=30`,
    });
    expect((await t.call("GET", `/transactions/${id}`)).json.status).toBe("queued");
    const again = await t.call("POST", `/transactions/${id}/start`, {});
    expect(again).toMatchObject({ status: 400, json: { detail: "Cannot start transaction in queued state" } });
    const upload = await t.call("POST", `/transactions/${id}/source-files`, form([{ name: "late.pdf", body: "x" }]));
    expect(upload.json.detail).toBe("Cannot upload files to transaction in queued state");
  });

  test("process needs an input, checks base64 and policies, and always uses production", async () => {
    t = testApp();
    const pid = await project();
    const url = `/tenants/default/projects/${pid}/transactions/process`;
    expect((await t.call("POST", url, { correlation_id: "x" })).json.detail).toContain(
      "at least one of source_files, documentText, ocrData",
    );
    expect(
      (await t.call("POST", url, { source_files: [{ filename: "a.pdf", base64_data: "***" }] })).json.detail,
    ).toContain("source_files[0].base64_data");
    const pol = await t.call("POST", url, {
      source_files: [{ filename: "a.pdf", base64_data: "YQ==", split_policy: "whole" }],
    });
    expect(pol.json.detail).toContain("source_files[0].split_policy");
    expect(pol.json.detail).toContain("inherit, single_document, self_contained");
    const ocr = await t.call("POST", url, {
      ocrData: { pages: [{ width: 100, height: 50, words: [{ text: "x", bbox: [5, 5, 1, 1] }] }] },
    });
    expect(ocr.status).toBe(400);
    expect(ocr.json.detail).toContain("bbox");
    const ocrOk = await t.call("POST", url, {
      ocrData: { pages: [{ width: 100, height: 50, words: [{ text: "Total", bbox: [1, 1, 30, 10] }] }] },
    });
    expect(ocrOk.status).toBe(202);
    const ok = await t.call("POST", url, {
      source_files: [{ filename: "a.pdf", base64_data: Buffer.from("%PDF").toString("base64") }],
      documentText: "hello",
      priority: 5,
    });
    expect(ok.status).toBe(202);
    expect(ok.json).toMatchObject({ status: "processing", status_url: `/transactions/${ok.json.transaction_id}` });
    expect(ok.json.estimated_completion_seconds).toBeGreaterThan(0);
    const got = (await t.call("GET", `/transactions/${ok.json.transaction_id}`)).json;
    expect(got).toMatchObject({ dataset_id: "production", priority: 5, status: "queued" });
  });

  test("a full queue answers 429 with the spec's queue_full body", async () => {
    t = testApp({ config: { maxQueueDepth: 1 } });
    const pid = await project();
    const url = `/tenants/default/projects/${pid}/transactions/process`;
    expect((await t.call("POST", url, { documentText: "one" })).status).toBe(202);
    const full = await t.call("POST", url, { documentText: "two" });
    expect(full.status).toBe(429);
    expect(full.json).toMatchObject({ error: "queue_full", current_depth: 1, max_depth: 1 });
    expect(typeof full.json.message).toBe("string");
  });
});
