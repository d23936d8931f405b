/**
 * GET /: a small public page for a person who opens the server in a browser (version, where to go next). Links
 * are relative, so the page works under a proxy's sub-path (docs/operations.md). Clients that want JSON get the
 * same facts as JSON (Accept: application/json).
 */
import { Elysia } from "elysia";
import pkg from "../../../package.json" with { type: "json" };

const LINKS: Array<{ href: string; title: string; text: string }> = [
  { href: "api-docs", title: "API explorer", text: "every operation with its request and response schemas and examples; try them with your key" },
  { href: "docs", title: "API reference", text: "the REST API: transactions, status, results, webhooks, keys" },
  { href: "review", title: "Review", text: "documents awaiting human review (sign in with a user account)" },
  { href: "health", title: "Health", text: "database, queue and OCR readiness as JSON" },
  { href: "api-docs/openapi.json", title: "OpenAPI document", text: "for client generators" },
];

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export const HOME_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>docproc ${escape(pkg.version)}</title><link rel="icon" href="data:,">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:720px;margin:40px auto;padding:0 16px;color:#1d2430}h1{margin-bottom:0}
.v{color:#57606a;margin-top:4px}ul{padding:0;list-style:none}li{margin:12px 0}a{font-weight:600;color:#0b5cad}
pre{background:#f2f4f7;padding:10px;overflow:auto;font-family:ui-monospace,monospace}</style></head>
<body><h1>docproc</h1><p class="v">version ${escape(pkg.version)} · ${escape(pkg.description)}</p>
<ul>${LINKS.map((l) => `<li><a href="${l.href}">${escape(l.title)}</a> — ${escape(l.text)}</li>`).join("")}</ul>
<h2>First request</h2><pre>curl -H "X-API-Key: $ADMIN_API_KEY" -H "content-type: application/json" \\
  -d '{"name":"Invoices"}' "$BASE/tenants/default/projects"</pre>
<p>The quick start (docs/quickstart.md) walks from here to a downloaded result with curl and Python.</p></body></html>`;

export function homeRoutes() {
  return new Elysia({ name: "home" }).get("/", ({ request }) => {
    const accept = request.headers.get("accept") ?? "";
    if (accept.includes("application/json") && !accept.includes("text/html")) {
      return Response.json({ name: "docproc", version: pkg.version, links: Object.fromEntries(LINKS.map((l) => [l.href, l.title])) });
    }
    return new Response(HOME_HTML, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
  });
}
