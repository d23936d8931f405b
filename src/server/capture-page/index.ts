/**
 * The capture page as one self-contained HTML document: page.html with page.css and page.js inlined. Imported as
 * text, so a `bun build --compile` binary carries the page. No external assets: the page MUST work on a phone
 * that reaches only this server.
 *
 * The Content-Security-Policy allows exactly the inlined script and style (by hash), requests to this origin, and
 * blob:/data: images for the thumbnails: nothing else can run or load.
 */
import { createHash } from "node:crypto";
import pageHtml from "./page.html" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };
import pageJs from "./page.js" with { type: "text" };

const hash = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

function assemble(): { html: string; csp: string } {
  const template = pageHtml as unknown as string;
  if (pageJs.includes("</script") || pageCss.includes("</style")) throw new Error("capture page: asset would close its own tag");
  // Function replacers: `$` sequences in the assets must stay literal.
  const html = template.replace("/*CAPTURE_CSS*/", () => pageCss).replace("/*CAPTURE_JS*/", () => pageJs);
  const csp = [
    "default-src 'none'",
    `script-src ${hash(pageJs)}`,
    `style-src ${hash(pageCss)}`,
    "img-src blob: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { html, csp };
}

const page = assemble();

/** The page and the headers it MUST be served with. */
export function capturePageResponse(): Response {
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
