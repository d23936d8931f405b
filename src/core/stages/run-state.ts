/**
 * Small helpers over the run state that several stages (and the runner) share: a document's pages, the results
 * file of the state as it is now, and letting go of the files' pdf.js documents.
 */
import type { DocumentResult, Page } from "../model";
import { buildResultsFile } from "../results";
import type { OpenFile, RunState, StageContext } from "./types";
import { forgetClassifications } from "./classify";
import { forgetExtractedAhead } from "./extract";

/**
 * After OCR (and again after Split, which may render a page for separator detection) a born-digital PDF is rarely
 * rendered again, so its pdf.js document is let go; a later render (a JPG or PDF export) opens it again.
 */
export async function suspendFiles(files: OpenFile[]): Promise<void> {
  await Promise.all(files.map((f) => f.suspend?.()));
}

/**
 * The answers computed ahead for this run's pages (classes, fields: core/page-memo.ts) are let go when the run
 * stops, whichever stage it stopped at; Classify and Extract let go of theirs as soon as they have run.
 */
export function forgetRunAnswers(state: RunState): void {
  forgetClassifications(state.pages);
  forgetExtractedAhead(state.pages);
}

/** Page number → page, built once per page list (a stage looks up every document's pages in it). */
const pagesByNumber = new WeakMap<Page[], Map<number, Page>>();

export function pagesOf(state: RunState, doc: DocumentResult): Page[] {
  let byNumber = pagesByNumber.get(state.pages);
  if (!byNumber || byNumber.size !== state.pages.length)
    pagesByNumber.set(state.pages, (byNumber = new Map(state.pages.map((p) => [p.page_number, p]))));
  return doc.split.page_numbers.map((n) => byNumber.get(n)!).filter(Boolean);
}

export function resultsOf(state: RunState, ctx: Pick<StageContext, "meta" | "now">) {
  return buildResultsFile(
    ctx.meta,
    state.sources.map((s) => s.filename),
    state.documents,
    state.pages,
    state.transactionRules,
    ctx.now(),
  );
}
