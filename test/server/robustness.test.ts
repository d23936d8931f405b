import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pathnameOf } from "../../src/server/app";
import { contentDisposition, contentTypeOf, safeName } from "../../src/server/content-types";
import { form, testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
let pid = "";
let tid = "";
beforeAll(async () => {
  t = testApp();
  pid = (await t.call("POST", "/tenants/default/projects", { name: "R" })).json.project_id;
  tid = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
});
afterAll(async () => t.close());

describe("bad input never crashes", () => {
  const cases: Array<[string, string, () => unknown, Record<string, string>?]> = [
    ["POST", "/tenants/default/projects", () => "[]"],
    ["POST", "/tenants/default/projects", () => "null"],
    ["POST", "/tenants/default/projects", () => '{"name": {"$gt": ""}}'],
    ["PATCH", "/tenants/default/projects/PID", () => ({})],
    ["PUT", "/tenants/default/projects/PID/settings", () => "42"],
    ["POST", "/tenants/default/projects/PID/transactions", () => ({ metadata: "x", priority: 1.5 })],
    ["POST", "/tenants/default/projects/PID/transactions", () => ({ correlation_id: 5 })],
    ["POST", "/tenants/default/projects/PID/transactions/process", () => ({ source_files: "a.pdf" })],
    [
      "POST",
      "/tenants/default/projects/PID/transactions/process",
      () => ({ source_files: [{ filename: "", base64_data: "" }] }),
    ],
    ["POST", "/tenants/default/projects/PID/transactions/process", () => ({ ocrData: [], documentText: 7 })],
    ["POST", "/transactions/TID/source-files", () => ({ files: "nope" })],
    [
      "POST",
      "/transactions/TID/source-files",
      () => "--x\r\nbroken",
      { "content-type": "multipart/form-data; boundary=x" },
    ],
    ["POST", "/transactions/TID/source-files?file_index=abc", () => form([{ name: "a.pdf", body: "a" }])],
    ["POST", "/transactions/batch-status", () => ({ transaction_ids: "x" })],
    ["POST", "/transactions/batch-status", () => ({ transaction_ids: [] })],
    ["GET", "/transactions/TID?timeout=-1", () => undefined],
    ["GET", "/transactions/TID?timeout=99999", () => undefined],
    ["GET", "/transactions/TID?include_request=maybe", () => undefined],
    ["GET", "/transactions?limit=abc&offset=-3", () => undefined],
    ["GET", "/transactions?filter_expression={", () => undefined],
    ["GET", "/transactions?filter_expression=" + encodeURIComponent(JSON.stringify({ and: [] })), () => undefined],
    [
      "GET",
      "/transactions?filter_expression=" +
        encodeURIComponent(JSON.stringify({ field: "status", op: "in", value: [{}] })),
      () => undefined,
    ],
    [
      "GET",
      "/transactions?filter_expression=" +
        encodeURIComponent(JSON.stringify({ field: "metadata.a'b", op: "eq", value: 1 })),
      () => undefined,
    ],
    ["GET", "/transactions?filter_expression=" + encodeURIComponent("[".repeat(50) + "]".repeat(50)), () => undefined],
    ["GET", "/transactions?sort_by=idx_", () => undefined],
    ["GET", "/transactions/%00/documents", () => undefined],
    ["DELETE", "/transactions/TID", () => undefined],
  ];
  for (const [i, [method, url, body, headers]] of cases.entries()) {
    test(`#${i} ${method} ${url.slice(0, 80)} answers 4xx with a detail`, async () => {
      const r = await t.call(method, url.replace("PID", pid).replace("TID", tid), body(), headers);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(typeof r.json?.detail).toBe("string");
    });
  }

  test("an upload of an empty file lands in failed_files, the others are stored", async () => {
    const r = await t.call(
      "POST",
      `/transactions/${tid}/source-files`,
      form([
        { name: "empty.pdf", body: "" },
        { name: "ok.pdf", body: "ok" },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.json.failed_files).toEqual([{ filename: "empty.pdf", index: null, error: "the file is empty" }]);
    expect(r.json.uploaded_files.map((f: any) => f.filename)).toEqual(["ok.pdf"]);
  });
});

describe("download headers", () => {
  test("Content-Disposition stays one safe header for quotes, semicolons and non-ASCII names", () => {
    expect(contentDisposition("attachment", 'a";b\r\n.json')).toBe(
      `attachment; filename="a__b__.json"; filename*=UTF-8''a%22%3Bb%0D%0A.json`,
    );
    expect(contentDisposition("inline", "sub/€uro Rechnung.pdf")).toBe(
      `inline; filename="_uro Rechnung.pdf"; filename*=UTF-8''%E2%82%ACuro%20Rechnung.pdf`,
    );
  });

  test("uploaded names lose client paths and control characters", () => {
    expect(safeName("C:\\Users\\me\\scan.pdf", 0)).toBe("scan.pdf");
    expect(safeName("../../etc/passwd", 0)).toBe("passwd");
    expect(safeName("a\r\nb.pdf", 0)).toBe("a__b.pdf");
    expect(safeName("..", 3)).toBe("file_3");
    expect(safeName(undefined, 1)).toBe("file_1");
  });

  test("pathnameOf matches URL.pathname", () => {
    for (const u of [
      "http://h/",
      "http://h:8080/transactions/x?timeout=3",
      "http://h/a/b#frag",
      "http://h/a?x=/y#z",
      "http://[::1]:80/health",
      "http://h",
    ]) {
      expect(pathnameOf(u)).toBe(new URL(u).pathname);
    }
  });

  test("Content-Type follows the extension", () => {
    expect(contentTypeOf("x.XLSX")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(contentTypeOf("x.xml")).toBe("application/xml");
    expect(contentTypeOf("x.pdf")).toBe("application/pdf");
    expect(contentTypeOf("page_1.jpg")).toBe("image/jpeg");
    expect(contentTypeOf("noext")).toBe("application/octet-stream");
  });
});
