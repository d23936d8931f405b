/**
 * The web inbox (docs/inbox.md) as one self-contained HTML document: page.html with page.css and app.js inlined,
 * imported as text so the compiled binary carries it, with no external asset. Served by `docproc serve` at `/` to
 * browsers (Accept: text/html); JSON clients still get the start facts as JSON there (routes/home.ts).
 */
import { inlinePage } from "../inline-page";
import pageHtml from "./page.html" with { type: "text" };
import pageCss from "./page.css" with { type: "text" };
import appJs from "./app.js" with { type: "text" };

let respond: (() => Response) | null = null;

export function inboxPageResponse(): Response {
  respond ??= inlinePage("inbox", "INBOX", pageHtml as unknown as string, pageCss, appJs as unknown as string);
  return respond();
}
