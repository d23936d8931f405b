import { afterEach, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { bindDocs } from "../../src/server/route-doc";
import { testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
afterEach(async () => t?.close());

async function completed() {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
  const r = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
    source_files: [
      { filename: "a.pdf", base64_data: "YQ==" },
      { filename: "b.pdf", base64_data: "Yg==", split_policy: "single_document" },
    ],
  });
  while (await t.runtime.pool.runOnce()) {}
  return r.json.transaction_id as string;
}

describe("exports", () => {
  test("lists the manifest and downloads files by manifest filename, subfolders included", async () => {
    t = testApp();
    const id = await completed();
    const m = await t.call("GET", `/transactions/${id}/exports`);
    expect(m.json).toMatchObject({ transaction_id: id, total_files: 2 });
    expect(m.json.profiles.json.files[0].filename).toBe(`${id}_data.json`);
    const json = await t.call("GET", `/transactions/${id}/exports/download/${id}_data.json`);
    expect(json.status).toBe(200);
    expect(json.res.headers.get("content-type")).toBe("application/json");
    expect(json.res.headers.get("content-disposition")).toBe(
      `attachment; filename="${id}_data.json"; filename*=UTF-8''${id}_data.json`,
    );
    expect(json.json.documents).toHaveLength(2);
    const csv = await t.call("GET", `/transactions/${id}/exports/download/csv/summary%20file.csv?inline=true`);
    expect(csv.res.headers.get("content-type")).toStartWith("text/csv");
    expect(csv.res.headers.get("content-disposition")).toStartWith('inline; filename="summary file.csv"');
    expect(await csv.res.text()).toBe("a,b\n1,2\n");
  });

  test("refuses files the manifest does not list, including path traversal", async () => {
    t = testApp();
    const id = await completed();
    expect((await t.call("GET", `/transactions/${id}/exports/download/nope.json`)).status).toBe(404);
    expect((await t.call("GET", `/transactions/${id}/exports/download/..%2F..%2Fdocproc.db`)).status).toBe(404);
    expect((await t.call("GET", `/transactions/${id}/exports/download/csv/../../../docproc.db`)).status).toBe(404);
    expect((await t.call("GET", `/transactions/${id}/exports/download/%E2.json`)).status).toBe(400);
  });

  test("a transaction without results has an empty manifest", async () => {
    t = testApp();
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const id = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
    expect((await t.call("GET", `/transactions/${id}/exports`)).json).toEqual({
      transaction_id: id,
      profiles: {},
      total_files: 0,
      total_size_bytes: 0,
    });
  });
});

describe("documents", () => {
  test("returns the documents with classification, split and fields", async () => {
    t = testApp();
    const id = await completed();
    const d = await t.call("GET", `/transactions/${id}/documents`);
    expect(d.json.documents).toHaveLength(2);
    expect(d.json.documents[1]).toMatchObject({
      document_index: 1,
      document_type: "invoice",
      split: { policy: "single_document" },
      fields: { invoice_number: { value: "INV-b.pdf" } },
    });
  });
});

describe("health and docs", () => {
  test("health reports database, queue depth and OCR status", async () => {
    t = testApp();
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, { documentText: "x" });
    const h = await t.call("GET", "/health", undefined, { "x-api-key": "" });
    expect(h.json).toMatchObject({
      status: "ok",
      database: { status: "ok" },
      queue: { depth: 1, max_depth: 1000 },
      ocr: { status: "ready" },
    });
  });

  test("the explorer and reference are served locally without a key", async () => {
    t = testApp();
    const page = await t.call("GET", "/api-docs", undefined, { "x-api-key": "" });
    const html = await page.res.text();
    expect(html).toContain('src="/api-docs/explorer.js"');
    expect(html).not.toMatch(/https?:\/\/(?!local)/);
    const script = await (await t.call("GET", "/api-docs/explorer.js", undefined, { "x-api-key": "" })).res.text();
    expect(() => new Function(script)).not.toThrow(); // it parses
    expect(script).toContain(`new URL("openapi.json", here)`); // relative to the script: works under a proxy prefix
    const docs = await (await t.call("GET", "/docs", undefined, { "x-api-key": "" })).res.text();
    expect(docs).toContain("<h1>");
  });

  test("the OpenAPI document is valid 3.1 and lists every route the server answers", async () => {
    t = testApp();
    const doc = (await t.call("GET", "/api-docs/openapi.json", undefined, { "x-api-key": "" })).json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    const served = t.app.routes
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{filename}")}`)
      .sort();
    const documented = Object.entries(doc.paths as Record<string, object>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
      .sort();
    expect(documented).toEqual([...new Set(served)]);
    expect(bindDocs(t.app.routes).undocumented).toEqual([]);
  });
});
