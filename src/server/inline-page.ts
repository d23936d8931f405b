/**
 * A self-contained HTML page (capture, review): a template with its stylesheet and script inlined, served with a
 * Content-Security-Policy that allows exactly that script and style (by hash), requests to this origin and blob:/data:
 * images: nothing else can run or load, and no asset comes from elsewhere (no CDN).
 */
import { createHash } from "node:crypto";

const hash = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

/**
 * Builds the page once; the template holds `/*<MARK>_CSS*\/` and `/*<MARK>_JS*\/` placeholders.
 * MUST refuse assets that would close their own tag.
 */
export function inlinePage(name: string, mark: string, template: string, css: string, js: string): () => Response {
  if (js.includes("</script") || css.includes("</style"))
    throw new Error(`${name} page: asset would close its own tag`);
  // Function replacers: `$` sequences in the assets must stay literal.
  const html = template.replace(`/*${mark}_CSS*/`, () => css).replace(`/*${mark}_JS*/`, () => js);
  const csp = [
    "default-src 'none'",
    `script-src ${hash(js)}`,
    `style-src ${hash(css)}`,
    "img-src blob: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return () =>
    new Response(html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": csp,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
      },
    });
}
