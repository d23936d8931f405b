/**
 * Spec compliance probes through app.handle: project settings over the API (partial, merged over the default
 * project, every problem listed, version bumps), error bodies for unknown routes, wrong methods and bad bodies.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { defaultProject } from "../../src/core/project";
import path from "node:path";
import { AwaitInput } from "../../src/queue/process-transaction";
import { testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
afterEach(async () => {
  await t?.close();
});

describe("project settings", () => {
  test("partial settings: create and PUT merge over the default project, PATCH over the current settings; every update bumps project_version", async () => {
    t = testApp();
    const created = await t.call("POST", "/tenants/default/projects", { name: "P", settings: { name: "Only a name" } });
    expect(created.status).toBe(201);
    expect(created.json.project_version).toBe(1);
    expect(created.json.settings.name).toBe("Only a name");
    expect(created.json.settings.classes.map((c: any) => c.id)).toEqual(defaultProject.classes.map((c) => c.id));
    const pid = created.json.project_id;
    const patched = await t.call("PATCH", `/tenants/default/projects/${pid}`, { settings: { export_profiles: [] } });
    expect(patched.status).toBe(200);
    expect(patched.json.project_version).toBe(2);
    expect(patched.json.settings.export_profiles).toEqual([]);
    expect(patched.json.settings.name).toBe("Only a name"); // PATCH keeps the keys it does not name
    const put = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, {
      split: { ...defaultProject.split },
    });
    expect([put.status, put.json.project_version]).toEqual([200, 3]);
    expect(put.json.settings.name).toBe(defaultProject.name); // PUT replaces: what it leaves out comes from the default
    expect(put.json.settings.export_profiles.map((p: any) => p.id)).toEqual(
      defaultProject.export_profiles.map((p) => p.id),
    );
    expect((await t.call("PATCH", `/tenants/default/projects/${pid}`, { description: "d" })).json.project_version).toBe(
      4,
    );
    expect((await t.call("GET", `/tenants/default/projects/${pid}`)).json.project_version).toBe(4);
  });

  test("invalid settings answer 400 listing every problem, and change nothing", async () => {
    t = testApp();
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const bad = await t.call("PATCH", `/tenants/default/projects/${pid}`, {
      settings: { split: { mode: "nope" }, export_profiles: 5 },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.problems.map((p: string) => p.split(":")[0]).sort()).toEqual(["export_profiles", "split.mode"]);
    for (const p of bad.json.problems) expect(bad.json.detail).toContain(p);
    const notObject = await t.call("PUT", `/tenants/default/projects/${pid}/settings`, [1]);
    expect(notObject.status).toBe(400);
    expect(typeof notObject.json.detail).toBe("string");
    expect((await t.call("GET", `/tenants/default/projects/${pid}`)).json.project_version).toBe(1);
  });
});

describe("error bodies", () => {
  test("unknown routes 404, wrong methods 405 with Allow, bad bodies 400/415: always a string detail", async () => {
    t = testApp();
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const unknown = await t.call("GET", "/no/such/route");
    expect([unknown.status, unknown.json]).toEqual([404, { detail: "Not found: no route for GET /no/such/route" }]);
    const wrong = await t.call("DELETE", `/tenants/default/projects/${pid}/transactions`);
    expect(wrong.status).toBe(405);
    expect(wrong.res.headers.get("allow")).toBe("POST");
    expect(wrong.json.detail).toContain("allowed: POST");
    const get = await t.call("PUT", "/transactions/abc");
    expect([get.status, get.res.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    const malformed = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, "{not json");
    expect([malformed.status, malformed.json]).toEqual([400, { detail: "Request body is not valid JSON" }]);
    const res = await t.app.handle(
      new Request(`http://local/tenants/default/projects/${pid}/transactions`, {
        method: "POST",
        headers: { "x-api-key": "test-admin-key", "content-type": "text/plain" },
        body: "hello",
      }),
    );
    expect(res.status).toBe(415);
    expect(((await res.json()) as any).detail).toBe(
      "Request body must be JSON (Content-Type: application/json), got text/plain",
    );
    const unknownTx = await t.call("POST", `/transactions/abc/source-files`, { files: [] });
    expect(unknownTx.status).toBe(404); // unknown transaction first
    const tx = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json;
    const notMultipart = await t.call("POST", tx.files_url, { files: [] });
    expect([notMultipart.status, notMultipart.json.detail]).toEqual([
      415,
      "Upload must be multipart/form-data with one or more `files` fields",
    ]);
    const batch = await t.call("POST", "/transactions/batch-status", {
      transaction_ids: Array.from({ length: 101 }, (_, i) => `id-${i}`),
    });
    expect([batch.status, batch.json.detail]).toEqual([
      400,
      "Invalid request: transaction_ids: at most 100 transaction ids per call",
    ]);
  });

  test("a short Host name (http://api/...) still reaches the download wildcard route", async () => {
    t = testApp({ workers: 1 });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const p = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
      documentText: "Invoice 1",
    });
    const id = p.json.transaction_id;
    expect((await t.call("GET", `/transactions/${id}?timeout=10`)).json.status).toBe("completed");
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      for (const host of ["api", "a", "docproc.internal:8080"]) {
        const r = await fetch(
          `http://127.0.0.1:${t.app.server!.port}/transactions/${id}/exports/download/csv/summary%20file.csv`,
          { headers: { host, "x-api-key": "test-admin-key" } },
        );
        expect([host, r.status, await r.text()]).toEqual([host, 200, "a,b\n1,2\n"]);
      }
    } finally {
      await t.app.stop();
    }
  });
});

describe("response fields", () => {
  test("create, upload, start, process, get and batch answer the spec's fields", async () => {
    t = testApp({ workers: 0 });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const created = await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {
      correlation_id: "c-1",
      metadata: { k: "v" },
    });
    expect(Object.keys(created.json).sort()).toEqual([
      "correlation_id",
      "created_at",
      "files_url",
      "project_id",
      "start_url",
      "status",
      "tenant_id",
      "transaction_id",
    ]);
    const id = created.json.transaction_id;
    expect(created.json).toMatchObject({
      status: "created",
      correlation_id: "c-1",
      files_url: `/transactions/${id}/source-files`,
      start_url: `/transactions/${id}/start`,
    });
    expect(created.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const before = await t.call("GET", `/transactions/${id}`);
    expect(before.json.metadata).toMatchObject({
      k: "v",
      progress: { total_documents: 0, completed_documents: 0, completion_percentage: 0 },
      step_progress: { current_step: "created" },
    });
    expect(Object.keys(before.json.metadata.step_progress.steps)).toEqual([
      "convert",
      "ocr",
      "split",
      "extract",
      "export",
    ]);
    expect(before.json).not.toHaveProperty("error_message");
    expect(before.json).not.toHaveProperty("review_metadata");

    const f = new FormData();
    f.append("files", new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" }));
    const up = await t.call("POST", created.json.files_url, f);
    expect(Object.keys(up.json).sort()).toEqual([
      "failed_count",
      "failed_files",
      "total_files",
      "transaction_id",
      "uploaded_count",
      "uploaded_files",
    ]);
    expect(up.json.uploaded_files[0]).toMatchObject({
      file_name: "a.pdf",
      filename: "a.pdf",
      content_type: "application/pdf",
      index: 0,
      size: 8,
    });
    expect(typeof up.json.uploaded_files[0].uploaded_at).toBe("string");

    const started = await t.call("POST", created.json.start_url, {});
    expect(Object.keys(started.json).sort()).toEqual(["message", "poll_url", "status", "status_url", "transaction_id"]);
    expect(started.json).toMatchObject({
      status: "processing",
      status_url: `/transactions/${id}`,
      poll_url: `/transactions/${id}?timeout=30`,
    });
    const again = await t.call("POST", created.json.start_url, {});
    expect([again.status, again.json.detail]).toEqual([400, "Cannot start transaction in queued state"]);

    const processed = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
      documentText: "hello",
    });
    expect(Object.keys(processed.json).sort()).toEqual([
      "estimated_completion_seconds",
      "poll_url",
      "status",
      "status_url",
      "transaction_id",
    ]);
    expect(Number.isInteger(processed.json.estimated_completion_seconds)).toBe(true);
    expect(processed.json.poll_url).toEndWith("?timeout=30");

    const other = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
    const byStep = (step: string) =>
      t
        .call("GET", `/transactions?step=${step}&fields=transaction_id`)
        .then((r) => r.json.items.map((i: any) => i.transaction_id).sort());
    expect(await byStep("created")).toEqual([other]);
    expect(await byStep("queued")).toEqual([id, processed.json.transaction_id].sort());
    const expr = encodeURIComponent(JSON.stringify({ field: "step", op: "eq", value: "created" }));
    expect(
      (await t.call("GET", `/transactions?filter_expression=${expr}`)).json.items.map((i: any) => i.transaction_id),
    ).toEqual([other]);

    const batch = await t.call("POST", "/transactions/batch-status", {
      transaction_ids: [id, processed.json.transaction_id],
      fields: "status,metadata.step_progress.current_step",
    });
    expect(batch.json.statuses[id]).toEqual({
      transaction_id: id,
      status: "queued",
      metadata: { step_progress: { current_step: "queued" } },
    });
  });
});

describe("OpenAPI", () => {
  test("every credentialed operation documents 403 (with its permission) and 429; submissions the three 429 bodies", async () => {
    t = testApp();
    const doc = (await t.call("GET", "/api-docs/openapi.json")).json;
    const process = doc.paths["/tenants/{tenant_id}/projects/{project_id}/transactions/process"].post.responses;
    expect(process[429].content["application/json"].schema.oneOf.map((s: any) => s.$ref)).toEqual([
      "#/components/schemas/Error",
      "#/components/schemas/AsyncRateLimited",
      "#/components/schemas/QueueFull",
    ]);
    expect(Object.keys(process[429].headers)).toContain("Retry-After");
    expect(process[403].description).toStartWith("Missing permission: transaction.create");
    expect(doc.paths["/transactions/{transaction_id}/source-files"].get.responses[403].description).toBe(
      "Missing permission: transaction.read",
    );
    expect(doc.paths["/transactions/{transaction_id}/source-files"].post.responses[415]).toBeDefined();
    expect(
      doc.paths["/transactions/{transaction_id}/source-files"].post.requestBody.content["multipart/form-data"].schema
        .properties.passwords.type,
    ).toBe("array");
    expect(doc.paths["/health"].get.responses[429]).toBeUndefined();
    expect(doc.paths["/admin/clients"].post.responses[429]).toBeUndefined();
  });
});

describe("paused and failed transactions", () => {
  test("awaiting_input shows review_metadata (step_name, instructions, timeout_hours) and no error_message", async () => {
    t = testApp({
      workers: 1,
      runner: async () => {
        throw new AwaitInput({ step_name: "review", instructions: "Check the totals", timeout_hours: 24 });
      },
    });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const id = (await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, { documentText: "x" }))
      .json.transaction_id;
    let view: any;
    for (let i = 0; i < 20 && view?.status !== "awaiting_input"; i++)
      view = (await t.call("GET", `/transactions/${id}?timeout=2`)).json;
    expect(view.status).toBe("awaiting_input");
    expect(view.review_metadata).toEqual({ step_name: "review", instructions: "Check the totals", timeout_hours: 24 });
    expect(view).not.toHaveProperty("error_message");
    const listed = (await t.call("GET", "/transactions?status=awaiting_input&fields=review_metadata.step_name")).json;
    expect(listed.items).toEqual([{ transaction_id: id, review_metadata: { step_name: "review" } }]);
  });
});

describe("downloads", () => {
  test("every export format downloads with its Content-Type; inline=true switches the disposition", async () => {
    const kinds: Record<string, string> = {
      "r.json": "application/json",
      "r.pdf": "application/pdf",
      "sheets/r.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "r.csv": "text/csv; charset=utf-8",
      "r.xml": "application/xml",
      "pages/r_page_1.jpg": "image/jpeg",
    };
    t = testApp({
      workers: 1,
      runner: async (_input, ctx) => {
        const now = new Date().toISOString();
        const files = Object.keys(kinds).map((f) => ({
          filename: f,
          path: `exports/${f}`,
          size_bytes: 1,
          document_ids: [],
          created_at: now,
        }));
        for (const f of files)
          await Bun.write(path.join(ctx.exportDir, f.filename), f.filename.endsWith(".json") ? "{}" : "x");
        const manifest = {
          transaction_id: ctx.meta.transaction_id,
          profiles: {
            all: {
              profile_id: "all",
              profile_name: "All",
              output_format: "json",
              scope_mode: "per_transaction",
              files,
            },
          },
          total_files: files.length,
          total_size_bytes: files.length,
        };
        return { status: "success", documents: [], pages: [], manifest, errors: [], warnings: [] };
      },
    });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const id = (await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, { documentText: "x" }))
      .json.transaction_id;
    expect((await t.call("GET", `/transactions/${id}?timeout=10`)).json.status).toBe("completed");
    for (const [file, type] of Object.entries(kinds)) {
      const r = await t.call("GET", `/transactions/${id}/exports/download/${file}`);
      expect([file, r.status, r.res.headers.get("content-type")]).toEqual([file, 200, type]);
      expect(r.res.headers.get("content-disposition")).toStartWith(`attachment; filename="${file.split("/").pop()}"`);
    }
    const inline = await t.call("GET", `/transactions/${id}/exports/download/pages/r_page_1.jpg?inline=true`);
    expect(inline.res.headers.get("content-disposition")).toStartWith('inline; filename="r_page_1.jpg"');
    expect((await t.call("GET", `/transactions/${id}/exports/download/exports/r.json`)).status).toBe(404); // path, not filename
  });
});
