/**
 * The review page as one self-contained HTML document: page.html with page.css, viewer.js and app.js inlined.
 * Imported as text, so a `bun build --compile` binary carries it; no external assets (no CDN): it MUST work on a
 * machine that reaches only this server. Served by `docproc serve` at /review and /review/{transaction_id}, and by
 * `docproc review` on 127.0.0.1 (docs/review.md).
 *
 * The Content-Security-Policy allows exactly the inlined script and style (by hash), requests to this origin, and
 * blob: images (page images are fetched with the session header and shown as blob URLs): nothing else runs or loads.
 */
import { createHash } from "node:crypto";
import pageHtml from "./page.html" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };
import viewerJs from "./viewer.js" with { type: "text" };
import appJs from "./app.js" with { type: "text" };

const hash = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

function assemble(): { html: string; csp: string } {
  const template = pageHtml as unknown as string;
  const js = `${viewerJs}\n${appJs}`;
  if (js.includes("</script") || pageCss.includes("</style")) throw new Error("review page: asset would close its own tag");
  const html = template.replace("/*REVIEW_CSS*/", () => pageCss).replace("/*REVIEW_JS*/", () => js);
  const csp = [
    "default-src 'none'",
    `script-src ${hash(js)}`,
    `style-src ${hash(pageCss)}`,
    "img-src blob: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { html, csp };
}

let page: { html: string; csp: string } | null = null;

/** The page and the headers it MUST be served with. */
export function reviewPageResponse(): Response {
  page ??= assemble();
  return new Response(page.html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": page.csp,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    },
  });
}
