/**
 * The intelligent splitter: content boundaries inside a page stream. Hard separators (PATCH-T and configured
 * barcodes) always cut; blank pages are dropped and count as evidence; between two content pages the boundary
 * evidence of boundary.ts decides. A document's confidence is the weakest decision that shaped it.
 */
import type { DocumentSpan, Page, SplitPolicy } from "../model";
import { boundaryEvidence, boundaryProbability, decisiveReasons } from "./boundary";
import { separatorOf } from "./separators";
import type { SplitSettings } from "../project/split";
import { type PageFeatures, pageFeatures } from "./signals";
import { SpanBuilder, type StreamPage } from "./stream";

export type PageClassifier = (pages: Page[]) => { class_id: string };

export function splitIntelligently(
  stream: StreamPage[],
  settings: SplitSettings,
  policy: SplitPolicy,
  classify?: PageClassifier,
): DocumentSpan[] {
  const b = new SpanBuilder(policy);
  const useSeparators = settings.intelligent.use_separators;
  // Blank pages are evidence here, not hard separators: a blank back side must not cut a document in two.
  const hardSeparators = { ...settings.separator, blank_pages: false };
  let prev: { features: PageFeatures; sp: StreamPage } | null = null;
  let blanks: number[] = [];
  let afterSeparator: string | null = null;
  let fileBorderPending = false;
  const dropBlanks = () => {
    for (const n of blanks) b.drop(n);
    blanks = [];
  };

  for (const sp of stream) {
    const pageNumber = sp.page.page_number;
    if (sp.firstOfFile) fileBorderPending = true;
    const hit = useSeparators ? separatorOf(sp.page, hardSeparators) : null;
    if (hit?.action === "drop") {
      dropBlanks();
      b.drop(pageNumber);
      afterSeparator = `after ${hit.reason} (dropped)`;
      continue;
    }
    if (useSeparators && !hit && sp.page.is_blank === true) {
      blanks.push(pageNumber); // decided with the next content page: dropped at a boundary, kept inside a document
      continue;
    }
    const features = pageFeatures(sp.page, classify ? safeClass(classify, sp.page) : null);
    if (hit?.action === "keep") {
      dropBlanks();
      b.start(pageNumber, `${hit.reason} (kept as first page)`);
    } else if (afterSeparator !== null || !prev) {
      dropBlanks();
      b.start(pageNumber, afterSeparator ?? "start of the page stream");
    } else {
      const ev = boundaryEvidence(prev.features, features, {
        fileBorder: fileBorderPending,
        blankBetween: blanks.length > 0,
      });
      const p = boundaryProbability(ev);
      if (p >= settings.intelligent.boundary_threshold) {
        dropBlanks();
        const why = decisiveReasons(ev, true).join("; ") || "boundary evidence";
        b.start(pageNumber, `new document at page ${pageNumber}: ${why}`, p);
      } else {
        for (const n of blanks) b.add(n);
        blanks = [];
        b.add(pageNumber, 1 - p);
      }
    }
    prev = { features, sp };
    afterSeparator = null;
    fileBorderPending = false;
  }
  dropBlanks();
  return b.spans();
}

function safeClass(classify: PageClassifier, page: Page): string | null {
  try {
    return classify([page]).class_id;
  } catch {
    return null; // a failing classifier only removes one signal
  }
}
