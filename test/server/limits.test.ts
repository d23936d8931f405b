/**
 * Issue 21, declared limits of the API: supplied text and OCR data (413), JSON nesting (400), numeric query
 * parameters (400). Each request here answered 202/201 or 500 before.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkJsonDepth, MAX_JSON_DEPTH } from "../../src/server/validation";
import { nestedJson } from "../support/hostile";
import { testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
let pid = "";
const KB = 1024;
beforeAll(async () => {
  t = testApp({ config: { maxDocumentTextBytes: 64 * KB, maxOcrDataBytes: 64 * KB } });
  pid = (await t.call("POST", "/tenants/default/projects", { name: "Limits" })).json.project_id;
});
afterAll(async () => t.close());

const processUrl = () => `/tenants/default/projects/${pid}/transactions/process`;

describe("supplied text and OCR data", () => {
  test("documentText above the limit is 413 naming the field, the size and the limit", async () => {
    const r = await t.call("POST", processUrl(), { documentText: "x".repeat(64 * KB + 1) });
    expect(r.status).toBe(413);
    expect(r.json.detail).toContain("documentText is 65537 bytes");
    expect(r.json.detail).toContain("65536 bytes");
    expect(r.json.detail).toContain("DOCPROC_MAX_DOCUMENT_TEXT_MB");
  });

  test("the text limit counts UTF-8 bytes, not characters", async () => {
    const r = await t.call("POST", processUrl(), { documentText: "€".repeat(22 * KB) }); // 3 bytes each: 66 KB
    expect(r.status).toBe(413);
  });

  test("documentText at the limit is accepted", async () => {
    const r = await t.call("POST", processUrl(), { documentText: "Invoice 1\n".repeat((64 * KB) / 10) });
    expect(r.status).toBe(202);
  });

  test("ocrData above the limit is 413", async () => {
    const words = Array.from({ length: 2000 }, (_, i) => ({
      text: `word${i}`,
      bbox: [i % 500, 10, (i % 500) + 20, 20],
      confidence: 0.9,
    }));
    const r = await t.call("POST", processUrl(), { ocrData: { pages: [{ width: 600, height: 800, words }] } });
    expect(r.status).toBe(413);
    expect(r.json.detail).toContain("ocrData is");
    expect(r.json.detail).toContain("DOCPROC_MAX_OCR_DATA_MB");
  });

  test("the limits come from the environment, in MB", async () => {
    const { loadEnvSettings } = await import("../../src/settings/env");
    const c = loadEnvSettings({
      DOCPROC_MAX_DOCUMENT_TEXT_MB: "0.5",
      DOCPROC_MAX_OCR_DATA_MB: "2",
      DOCPROC_MAX_PUBLIC_UPLOADS: "3",
    }).server;
    expect([c.maxDocumentTextBytes, c.maxOcrDataBytes, c.maxPublicUploads]).toEqual([512 * KB, 2 * 1024 * KB, 3]);
    expect(() => loadEnvSettings({ DOCPROC_MAX_DOCUMENT_TEXT_MB: "-1" })).toThrow("DOCPROC_MAX_DOCUMENT_TEXT_MB");
  });
});

describe("JSON nesting", () => {
  // Before: depth 100,000 → 500 at create; depth 1,500 was stored and then every metadata-filtered list was 500.
  test.each([1500, 100_000])("metadata nested %i levels deep is 400 at create", async (depth) => {
    const body = `{"metadata":${nestedJson(depth)}}`;
    const r = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, body, {
      "content-type": "application/json",
    });
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
  });

  test("every JSON body is held to the same depth (project settings, one-step process)", async () => {
    const settings = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, nestedJson(MAX_JSON_DEPTH + 1), {
      "content-type": "application/json",
    });
    expect(settings.status).toBe(400);
    const one = await t.call("POST", processUrl(), `{"documentText":"a","metadata":${nestedJson(MAX_JSON_DEPTH)}}`, {
      "content-type": "application/json",
    });
    expect(one.status).toBe(400);
  });

  test("metadata within the limit is stored and filtered on", async () => {
    const created = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {
      metadata: { batch: "b-7", deep: JSON.parse(nestedJson(20)) },
    });
    expect(created.status).toBe(201);
    const filter = encodeURIComponent(JSON.stringify({ field: "metadata.batch", op: "eq", value: "b-7" }));
    const list = await t.call("GET", `/transactions?dataset_id=production&filter_expression=${filter}`);
    expect(list.status).toBe(200);
    expect(list.json.items.map((i: { transaction_id: string }) => i.transaction_id)).toContain(
      created.json.transaction_id,
    );
  });

  test("a row SQLite cannot parse (stored before the cap) no longer fails metadata-filtered lists", async () => {
    const created = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {
      metadata: { batch: "old" },
    });
    t.data.db
      .query("UPDATE transactions SET metadata = ? WHERE transaction_id = ?")
      .run(`{"batch":"old","x":${nestedJson(1500)}}`, created.json.transaction_id);
    const filter = encodeURIComponent(JSON.stringify({ field: "metadata.batch", op: "eq", value: "b-7" }));
    const list = await t.call("GET", `/transactions?dataset_id=production&filter_expression=${filter}`);
    expect(list.status).toBe(200);
    expect(list.json.total).toBe(1);
  });

  test("a deeply nested filter_expression is 400", async () => {
    const r = await t.call("GET", `/transactions?filter_expression=${encodeURIComponent(nestedJson(5000))}`);
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain("filter_expression");
  });

  test("brackets inside strings do not count, escaped quotes do not end a string", () => {
    expect(() => checkJsonDepth(JSON.stringify({ a: "[[[[[[[[[[[[", b: 'x\\"{{{{{{{{' }), 3, "body")).not.toThrow();
    expect(() => checkJsonDepth("[[[[", 3, "body")).toThrow("more than 3 levels");
    // A string ending in escaped backslashes ends at its quote: the brackets after it count.
    expect(() => checkJsonDepth(JSON.stringify({ a: "x\\\\", b: [[[1]]] }), 3, "body")).toThrow("more than 3");
    expect(() => checkJsonDepth(JSON.stringify({ a: 'x\\"[[[[', b: [[1]] }), 3, "body")).not.toThrow();
  });

  test("strings are skipped as a character-at-a-time scan skips them (seeded random texts)", () => {
    // The scan before strings were skipped by indexOf: the reference.
    const reference = (text: string, max: number) => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === "\\") i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === "[" || c === "{") {
          if (++depth > max) return false;
        } else if (c === "]" || c === "}") depth--;
      }
      return true;
    };
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = ['"', '"', "\\", "\\", "[", "{", "]", "}", "a"];
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * 9)]).join("");
      let ok = true;
      try {
        checkJsonDepth(text, 2, "body");
      } catch {
        ok = false;
      }
      expect([text, ok]).toEqual([text, reference(text, 2)]);
    }
  });
});

describe("numeric query parameters", () => {
  // Before: offset=100000000000000000000 → 500 (SQLITE_MISMATCH).
  test.each([
    ["offset=100000000000000000000", "offset"],
    ["offset=9007199254740993", "offset"],
    ["offset=1000000001", "offset"],
    ["limit=99999999999999999999999", "limit"],
    ["limit=0", "limit"],
  ])("GET /transactions?%s is 400 naming the parameter", async (query, name) => {
    const r = await t.call("GET", `/transactions?${query}`);
    expect(r.status).toBe(400);
    expect(r.json.detail).toStartWith(`${name}:`);
  });

  test("long-poll timeout and file_index beyond 2^53 are 400", async () => {
    const tid = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
    expect((await t.call("GET", `/transactions/${tid}?timeout=100000000000000000000`)).status).toBe(400);
    const up = await t.call(
      "POST",
      `/transactions/${tid}/source-files?file_index=100000000000000000000`,
      new FormData(),
    );
    expect(up.status).toBe(400);
  });

  test("a large but valid offset answers an empty page", async () => {
    const r = await t.call("GET", "/transactions?offset=1000000000");
    expect(r.status).toBe(200);
    expect(r.json.items).toEqual([]);
  });
});
