/**
 * The capture page as one self-contained HTML document: page.html with page.css and page.js inlined. Imported as
 * text, so a `bun build --compile` binary carries the page. No external assets: the page MUST work on a phone
 * that reaches only this server.
 *
 * The Content-Security-Policy allows exactly the inlined script and style (by hash), requests to this origin, and
 * blob:/data: images for the thumbnails: nothing else can run or load.
 */
import { inlinePage } from "../inline-page";
import pageHtml from "./page.html" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };
import pageJs from "./page.js" with { type: "text" };

/** The page and the headers it MUST be served with. */
export const capturePageResponse: () => Response = inlinePage(
  "capture",
  "CAPTURE",
  pageHtml as unknown as string,
  pageCss,
  pageJs,
);
