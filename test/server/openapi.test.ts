/**
 * The OpenAPI document is generated from the app's route table (server/openapi.ts, route-doc.ts): every route is in
 * it and every operation has a route; a doc cannot name a route that does not exist; the contract's endpoints are
 * there with their parameters and answers; and the document keeps the shape existing clients were generated from
 * (openapi-shape.json: each operation's parameters, request body types and response codes).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { z } from "zod";
import { openApiDocument } from "../../src/server/openapi";
import { bindDocs, err, q, type RouteDoc } from "../../src/server/route-doc";
import shape from "./openapi-shape.json" with { type: "json" };
import { testApp } from "./helpers";

let t: ReturnType<typeof testApp>;
let doc: any;
beforeAll(async () => {
  t = testApp();
  doc = (await t.call("GET", "/api-docs/openapi.json", undefined, { "x-api-key": "" })).json;
});
afterAll(() => t?.close());

const operations = (d: any) =>
  Object.entries(d.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method} ${path}`, op })),
  );

describe("generated from the routes", () => {
  test("every route the app answers is an operation, and every operation is a route the app answers", () => {
    const { undocumented, unmatched } = bindDocs(t.app.routes);
    expect({ undocumented, unmatched }).toEqual({ undocumented: [], unmatched: [] });
    const served = t.app.routes
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{filename}")}`)
      .sort();
    expect(
      operations(doc)
        .map((o) => o.key)
        .sort(),
    ).toEqual([...new Set(served)]);
  });

  test("a route without a doc is reported and left out; a doc naming no route or misnaming a parameter too", () => {
    const doc: RouteDoc = {
      method: "get",
      path: "/things/{id}",
      summary: "A thing",
      tag: "T",
      responses: { 200: { description: "ok" } },
    };
    const app = new Elysia().get("/things/:id", () => "x").post("/things", () => "y");
    expect(bindDocs(app.routes, [doc])).toMatchObject({ undocumented: ["POST /things"], unmatched: [] });
    const generated = openApiDocument(app.routes, [doc]) as any;
    expect(Object.keys(generated.paths)).toEqual(["/things/{id}"]);
    expect(generated.paths["/things/{id}"].get.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
    const gone = { ...doc, path: "/thing/{id}" };
    expect(bindDocs(app.routes, [doc, gone]).unmatched).toEqual(["GET /thing/{id} names no route"]);
    const misnamed = { ...doc, path: "/things/{thing_id}" };
    expect(bindDocs(app.routes, [misnamed]).unmatched).toEqual([
      "GET /things/{thing_id} names its parameters unlike /things/:id",
    ]);
    expect(Object.keys((openApiDocument(app.routes, [misnamed]) as any).paths)).toEqual([]);
  });

  test("query parameters, JSON and multipart bodies come from the doc's zod schemas", () => {
    const docs: RouteDoc[] = [
      {
        method: "post",
        path: "/up/{id}/{rest}",
        summary: "Upload",
        tag: "T",
        query: z.object({ n: q.integer("How many"), flag: q.boolean("A flag") }),
        body: { multipart: z.object({ files: z.array(z.string()), note: z.string().optional() }) },
        responses: { 200: { description: "ok", schema: z.object({ done: z.boolean() }) }, 404: err("Nothing") },
      },
    ];
    const app = new Elysia().post("/up/:id/*", () => "x");
    const op = (openApiDocument(app.routes, docs) as any).paths["/up/{id}/{rest}"].post;
    expect(op.parameters.map((p: any) => [p.name, p.in, p.required, p.schema.type, p.description])).toEqual([
      ["id", "path", true, "string", undefined],
      ["rest", "path", true, "string", undefined],
      ["n", "query", false, "integer", "How many"],
      ["flag", "query", false, "boolean", "A flag"],
    ]);
    expect(op.requestBody.content["multipart/form-data"].schema.required).toEqual(["files"]);
    expect(op.responses[200].content["application/json"].schema.properties.done.type).toBe("boolean");
    expect(op.responses[415]).toBeUndefined(); // multipart: no JSON-body 415
  });
});

describe("kept for existing clients", () => {
  test("each operation keeps its parameters, request body types and response codes (openapi-shape.json)", () => {
    const now = Object.fromEntries(
      operations(doc).map(({ key, op }) => [
        key,
        {
          parameters: (op.parameters ?? []).map((p: any) => `${p.in}:${p.name}${p.required ? "*" : ""}`),
          requestBody: Object.keys(op.requestBody?.content ?? {}).sort(),
          responses: Object.keys(op.responses).sort(),
        },
      ]),
    );
    expect(now).toEqual(shape);
  });

  test("the interface contract's endpoints, with their parameters and answers", () => {
    const byKey = Object.fromEntries(operations(doc).map(({ key, op }) => [key, op]));
    const contract: Array<[string, string[], string]> = [
      ["post /tenants/{tenant_id}/projects/{project_id}/transactions/process", [], "202"],
      ["post /tenants/{tenant_id}/projects/{project_id}/transactions", [], "201"],
      ["post /transactions/{transaction_id}/source-files", ["file_index"], "200"],
      ["post /transactions/{transaction_id}/start", [], "200"],
      ["get /transactions/{transaction_id}", ["timeout", "fields", "include_request"], "200"],
      ["post /transactions/batch-status", [], "200"],
      [
        "get /transactions",
        [
          "dataset_id",
          "status",
          "limit",
          "offset",
          "search",
          "sort_by",
          "sort_order",
          "step",
          "date_from",
          "date_to",
          "index_filter",
          "filter_expression",
        ],
        "200",
      ],
      ["get /transactions/{transaction_id}/exports", [], "200"],
      ["get /transactions/{transaction_id}/exports/download/{filename}", ["inline"], "200"],
      ["post /tenants/{tenant_id}/projects/{project_id}/capture-tokens", [], "201"],
      ["post /tenants/{tenant_id}/projects", [], "201"],
      ["get /transactions/{transaction_id}/documents", [], "200"],
      ["get /health", [], "200"],
      ["post /auth/login", [], "200"],
      ["post /admin/clients", [], "201"],
      ["post /admin/clients/{client_id}/keys", [], "201"],
      ["delete /admin/clients/{client_id}/keys/{key_id}", [], "200"],
    ];
    for (const [key, query, success] of contract) {
      const op = byKey[key];
      expect([key, op !== undefined]).toEqual([key, true]);
      const pathNames = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = (op.parameters ?? []).map((p: any) => `${p.in}:${p.name}`);
      expect(params).toEqual(
        expect.arrayContaining([...pathNames.map((n) => `path:${n}`), ...query.map((n) => `query:${n}`)]),
      );
      expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining([success])]);
    }
  });
});
