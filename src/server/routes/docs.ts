/** /api-docs (explorer + OpenAPI JSON, all served locally) and /docs (docs/api.md as HTML). Public. */
import { Elysia } from "elysia";
import apiMd from "../../../docs/api.md" with { type: "text" };
import { explorerAsset, explorerPage } from "../explorer";
import { openApiDocument, type AppRoute } from "../openapi";
import { publicBaseOf } from "../proxy";
import { documentRoutes, type RouteDoc } from "../route-doc";

const html = (body: string, title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"><style>body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#1d2430}table{border-collapse:collapse}td,th{border:1px solid #d8dde6;padding:4px 8px;vertical-align:top}code,pre{background:#f2f4f7;font-family:ui-monospace,monospace}pre{padding:10px;overflow:auto}</style></head><body>${body}</body></html>`;

/** `routes`: the finished app's route table (the document is built from it on first use). */
export function docsRoutes(appRoutes: () => readonly AppRoute[]) {
  let doc: Record<string, unknown> | undefined;
  let spec: string | undefined;
  // Behind a proxy with a prefix the document names it as its server, and the explorer's links carry it.
  const specFor = (prefix: string) => {
    doc ??= openApiDocument(appRoutes());
    spec ??= JSON.stringify(doc);
    return prefix ? JSON.stringify({ ...doc, servers: [{ url: prefix }] }) : spec;
  };
  const reference = html(Bun.markdown.html(apiMd), "docproc API reference");
  const headers = (type: string) => ({ headers: { "content-type": type, "cache-control": "no-cache" } });
  return new Elysia({ name: "docs" })
    .get("/api-docs", ({ request }) => explorerPage(publicBaseOf(request).prefix))
    .get(
      "/api-docs/openapi.json",
      ({ request }) => new Response(specFor(publicBaseOf(request).prefix), headers("application/json")),
    )
    .get("/api-docs/explorer.js", ({ request }) => explorerAsset("/api-docs/explorer.js", request))
    .get("/api-docs/swagger-ui-bundle.js", ({ request }) => explorerAsset("/api-docs/swagger-ui-bundle.js", request))
    .get("/api-docs/swagger-ui.css", ({ request }) => explorerAsset("/api-docs/swagger-ui.css", request))
    .get("/docs", () => new Response(reference, headers("text/html; charset=utf-8")));
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const DOCS_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/api-docs",
    summary: "API explorer (HTML, served locally)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/api-docs/openapi.json",
    summary: "This OpenAPI document",
    tag: "Service",
    public: true,
    responses: { 200: { description: "OpenAPI 3.1", content: "application/json" } },
  },
  {
    method: "get",
    path: "/api-docs/explorer.js",
    summary: "Explorer script",
    tag: "Service",
    public: true,
    responses: { 200: { description: "JavaScript", content: "text/javascript" } },
  },
  {
    method: "get",
    path: "/api-docs/swagger-ui-bundle.js",
    summary: "Swagger UI (swagger-ui-dist), served locally",
    tag: "Service",
    public: true,
    responses: { 200: { description: "JavaScript", content: "text/javascript" } },
  },
  {
    method: "get",
    path: "/api-docs/swagger-ui.css",
    summary: "Swagger UI's style sheet, served locally",
    tag: "Service",
    public: true,
    responses: { 200: { description: "CSS", content: "text/css" } },
  },
  {
    method: "get",
    path: "/docs",
    summary: "API reference (HTML of docs/api.md)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
];
documentRoutes(DOCS_ROUTE_DOCS);
