/**
 * The review page as one self-contained HTML document: page.html with page.css, viewer.js and app.js inlined.
 * Imported as text, so a `bun build --compile` binary carries it; no external assets (no CDN): it MUST work on a
 * machine that reaches only this server. Served by `docproc serve` at /review and /review/{transaction_id}, and by
 * `docproc review` on 127.0.0.1 (docs/review.md).
 *
 * The Content-Security-Policy allows exactly the inlined script and style (by hash), requests to this origin, and
 * blob: images (page images are fetched with the session header and shown as blob URLs): nothing else runs or loads.
 */
import { inlinePage } from "../inline-page";
import pageHtml from "./page.html" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };
import viewerJs from "./viewer.js" with { type: "text" };
import appJs from "./app.js" with { type: "text" };

let respond: (() => Response) | null = null;

/** The page and the headers it MUST be served with (assembled at first use). */
export function reviewPageResponse(): Response {
  respond ??= inlinePage("review", "REVIEW", pageHtml as unknown as string, pageCss, `${viewerJs}\n${appJs}`);
  return respond();
}
