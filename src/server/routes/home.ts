/**
 * GET /: the web inbox for a person who opens the server in a browser (sign in, upload, follow, review, download:
 * inbox-page/, docs/inbox.md), with links to the explorer, reference and health at its foot. Links are relative,
 * so the page works under a proxy's sub-path (docs/operations.md). Clients that want JSON get the service's facts
 * as JSON (Accept: application/json).
 */
import { Elysia } from "elysia";
import pkg from "../../../package.json" with { type: "json" };
import { inboxPageResponse } from "../inbox-page/index";
import { documentRoutes, type RouteDoc } from "../route-doc";

const LINKS: Array<{ href: string; title: string; text: string }> = [
  {
    href: "api-docs",
    title: "API explorer",
    text: "every operation with its request and response schemas and examples; try them with your key",
  },
  { href: "docs", title: "API reference", text: "the REST API: transactions, status, results, webhooks, keys" },
  { href: "review", title: "Review", text: "documents awaiting human review (sign in with a user account)" },
  { href: "health", title: "Health", text: "database, queue and OCR readiness as JSON" },
  { href: "api-docs/openapi.json", title: "OpenAPI document", text: "for client generators" },
];

export function homeRoutes() {
  return new Elysia({ name: "home" }).get("/", ({ request }) => {
    const accept = request.headers.get("accept") ?? "";
    if (accept.includes("application/json") && !accept.includes("text/html")) {
      return Response.json({
        name: "docproc",
        version: pkg.version,
        links: Object.fromEntries(LINKS.map((l) => [l.href, l.title])),
      });
    }
    return inboxPageResponse();
  });
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const HOME_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/",
    summary: "Start page: version and links (HTML; JSON with Accept: application/json)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
];
documentRoutes(HOME_ROUTE_DOCS);
