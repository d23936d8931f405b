/**
 * The API explorer: Swagger UI (swagger-ui-dist, pinned) on this server's OpenAPI document. Chosen over Scalar's
 * standalone bundle: 1.9 MB against 4.3 MB, and no hosted-service features (AI agent, proxy, sharing) that would
 * reach outside a self-hosted server. Its files are imported as text, so the compiled binary (scripts/build.ts)
 * carries them: nothing is fetched from a CDN, and the Content-Security-Policy below lets the page reach this
 * origin only. Try-it-out fills path parameters from labelled inputs (and refuses to send without them) and shows
 * a curl snippet for every request.
 *
 * Routes (routes/docs.ts): /api-docs (this page), /api-docs/explorer.js (init.js), /api-docs/swagger-ui-bundle.js,
 * /api-docs/swagger-ui.css, next to /api-docs/openapi.json. Assets are addressed below the page's own path with the
 * proxy prefix (server/proxy.ts), so the page works under a sub-path.
 */
import bundleJs from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import bundleCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import initJs from "./init.js" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };

interface Asset {
  body: string;
  type: string;
  etag?: string;
  gzip?: Uint8Array<ArrayBuffer>;
}

// The bundles end with a source-map comment naming a .map file this server does not serve (devtools would 404).
const noSourceMap = (text: string) => text.replace(/\n?\/[/*]# sourceMappingURL=\S+(\s*\*\/)?\s*$/, "\n");

const ASSETS = {
  "/api-docs/explorer.js": { body: initJs, type: "text/javascript; charset=utf-8" },
  "/api-docs/swagger-ui-bundle.js": { body: noSourceMap(bundleJs), type: "text/javascript; charset=utf-8" },
  "/api-docs/swagger-ui.css": { body: `${noSourceMap(bundleCss)}\n${pageCss}`, type: "text/css; charset=utf-8" },
} satisfies Record<string, Asset>;

export type ExplorerAsset = keyof typeof ASSETS;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Swagger UI (React) sets style attributes
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The page for a proxy prefix (`` or `/docproc`; proxy.ts only passes prefixes of safe characters). */
export function explorerPage(prefix: string): Response {
  const p = escapeAttr(prefix);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>docproc API explorer</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${p}/api-docs/swagger-ui.css"></head>
<body><nav class="dp-top" aria-label="docproc"><strong>docproc API explorer</strong>
<a href="${p}/">Home</a><a href="${p}/docs">Reference</a><a href="${p}/api-docs/openapi.json">openapi.json</a></nav>
<main id="swagger-ui"></main>
<script src="${p}/api-docs/swagger-ui-bundle.js"></script><script src="${p}/api-docs/explorer.js"></script>
</body></html>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-security-policy": CSP,
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * One of the explorer's files. Revalidated by ETag (a reload costs a 304), and gzipped
 * once on first use when the client accepts it (the bundle shrinks from 1.7 MB to about 0.5 MB: phones).
 */
export function explorerAsset(name: ExplorerAsset, request: Request): Response {
  const asset: Asset = ASSETS[name];
  asset.etag ??= `"${Bun.hash(asset.body).toString(36)}"`;
  const headers: Record<string, string> = {
    "content-type": asset.type,
    "cache-control": "no-cache",
    etag: asset.etag,
    vary: "accept-encoding",
    "x-content-type-options": "nosniff",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  if (/\bgzip\b/.test(request.headers.get("accept-encoding") ?? "")) {
    asset.gzip ??= Bun.gzipSync(new TextEncoder().encode(asset.body));
    return new Response(asset.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(asset.body, { headers });
}
