/**
 * Deterministic split modes over a page stream: one document per source file, per page, per N pages, and
 * separator sheets. Their decisions follow configuration, not judgement, so their confidence is 1.0.
 */
import type { DocumentSpan, SplitPolicy } from "../model";
import { separatorOf } from "./separators";
import type { SplitSettings } from "../project/split";
import { SpanBuilder, type StreamPage } from "./stream";

export function splitPerFile(stream: StreamPage[], policy: SplitPolicy): DocumentSpan[] {
  const b = new SpanBuilder(policy);
  for (const sp of stream) {
    if (sp.firstOfFile) b.start(sp.page.page_number, `one document per source file (file ${sp.fileIndex})`);
    else b.add(sp.page.page_number);
  }
  return b.spans();
}

export function splitPerPage(stream: StreamPage[], policy: SplitPolicy): DocumentSpan[] {
  const b = new SpanBuilder(policy);
  for (const sp of stream) b.start(sp.page.page_number, "one document per page");
  return b.spans();
}

/** Chunks of N pages; the stream may run across files (only inherit files share a stream). */
export function splitFixedPages(stream: StreamPage[], n: number, policy: SplitPolicy): DocumentSpan[] {
  const b = new SpanBuilder(policy);
  stream.forEach((sp, i) => {
    if (i % n === 0) b.start(sp.page.page_number, `fixed ${n} page${n === 1 ? "" : "s"} per document`);
    else b.add(sp.page.page_number);
  });
  return b.spans();
}

/**
 * Separator sheets: a matching page starts a new document, kept as its first page or dropped. Consecutive
 * separators never produce empty documents; a stream that is only separators produces none.
 * Needs `page.barcodes` / `page.is_blank` (analysePages) on the stream's pages.
 */
export function splitBySeparators(stream: StreamPage[], settings: SplitSettings, policy: SplitPolicy): DocumentSpan[] {
  const b = new SpanBuilder(policy);
  let lastReason = "start of the page stream";
  for (const sp of stream) {
    const pageNumber = sp.page.page_number;
    const hit = separatorOf(sp.page, settings.separator);
    if (hit?.action === "drop") {
      b.drop(pageNumber);
      lastReason = `after ${hit.reason} (dropped)`;
    } else if (hit?.action === "keep") {
      b.start(pageNumber, `${hit.reason} (kept as first page)`);
    } else if (!b.hasOpenDocument) {
      b.start(pageNumber, lastReason);
    } else {
      b.add(pageNumber);
    }
  }
  return b.spans();
}
