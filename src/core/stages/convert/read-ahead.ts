/**
 * Reading ahead: while pdf.js (in its worker thread) converts the next pages of a file, the main thread would only
 * wait for them. It classifies each text-layer page meanwhile, and once the next page says a document starts there
 * (the splitter's own boundary evidence), classifies and extracts the document that ended before it, one page or
 * several; Split (its per-page class signal), Classify and Extract then find those answers remembered
 * (core/page-memo.ts) and compute everything else as before. Without it, the documents of several pages were all
 * extracted after the last page was converted, on one core (on 500 born-digital invoice pages, 77 documents).
 *
 * The answers are remembered per run of pages, keyed by their content, the class and the project: results are the
 * same with or without reading ahead, only the time differs. A document the splitter then cuts differently (file
 * borders, blank pages, separator sheets) costs its extraction for nothing. Files with attachments are not read
 * ahead (an e-invoice decides the class); a document with a page without a text layer is not either.
 */
import type { Page } from "../../model";
import type { ProjectSettings } from "../../project";
import { boundaryEvidence, boundaryProbability } from "../../split/boundary";
import { pageFeatures, type PageFeatures } from "../../split/signals";
import { classifyDocument } from "../classify";
import type { ConvertOptions } from ".";
import { extractAhead } from "../extract";
import { splitSettingsOf, stepEnabled } from "../../workflow";

interface Seen {
  page: Page;
  features: PageFeatures;
}

/**
 * Longer documents are left to the Extract stage: their extraction's working memory would come on top of the open
 * pdf.js document's (a 999-page document took ~400 MB for a moment, issue 18).
 */
export const MAX_AHEAD_PAGES = 25;

/** The `onPage` handler for converting one transaction's files; undefined when there is nothing to read ahead. */
export function readAheadOf(project: ProjectSettings, signal?: AbortSignal): ConvertOptions["onPage"] {
  if (!stepEnabled(project, "classify")) return undefined;
  const split = splitSettingsOf(project);
  const extract = stepEnabled(project, "extract");
  // Where documents start: every page (per_page), or where the intelligent splitter would cut; other modes make
  // documents of several pages, so only the classes are read ahead there.
  const mode = !split.enabled
    ? "none"
    : split.mode === "per_page"
      ? "pages"
      : split.mode.startsWith("intelligent")
        ? "evidence"
        : "none";
  let prev: Seen | null = null;
  // The pages of the document being read, as far as reading ahead can tell (from its first page on), and the class
  // of its first page; null once it is longer than reading ahead extracts (nothing of it is kept then).
  let run: Page[] | null = [];
  let firstClass = "";
  const finish = () => {
    const pages = run;
    run = [];
    if (!pages?.length) return;
    extractAhead(pages, pages.length === 1 ? firstClass : classifyDocument(pages, project).class_id, project);
  };
  // Pages arrive nearly in order (two requests in flight per pdf.js worker, two workers on long files): they are
  // taken in page order, so each is compared with the page before it, as the splitter does.
  let fileIndex = -1;
  let expected = 1;
  const early = new Map<number, Page>();
  return (page, info) => {
    if (page.source_file_index !== fileIndex) {
      fileIndex = page.source_file_index;
      expected = 1;
      early.clear();
    }
    early.set(page.source_file_page_number, page);
    for (let next = early.get(expected); next; next = early.get(expected)) {
      early.delete(expected++);
      readOne(next, info);
    }
  };

  function readOne(page: Page, file: { attachments: number; pages: number }): void {
    if (page.text_source !== "text_layer" || file.attachments > 0 || signal?.aborted) {
      prev = null;
      run = [];
      return;
    }
    try {
      const classId = classifyDocument([page], project).class_id;
      if (!extract || mode === "none") return;
      const features = pageFeatures(page, classId);
      const follows =
        prev && prev.page.source_file_index === page.source_file_index && prev.page.page_number === page.page_number - 1
          ? prev
          : null;
      const starts =
        mode === "pages" ||
        !follows ||
        boundaryProbability(boundaryEvidence(follows.features, features, { fileBorder: false, blankBetween: false })) >=
          split.intelligent.boundary_threshold;
      // This page begins the next document: the one before it has ended (unless a page without text broke it off).
      if (starts) {
        if (follows) finish();
        run = [];
        firstClass = classId;
      }
      prev = { page, features };
      if (run && run.length < MAX_AHEAD_PAGES) run.push(page);
      else run = null;
      // The file's last page ends its document (unless the next file continues it: rare, and then only time is lost).
      if (page.source_file_page_number === file.pages) finish();
    } catch {
      run = [];
      // Only a head start: the stages compute (and report) whatever failed here again.
    }
  }
}
