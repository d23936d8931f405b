/**
 * Reading ahead: while pdf.js (in its worker thread) converts the next pages of a file, the main thread would only
 * wait for them. It classifies each text-layer page meanwhile, and extracts the fields of each page that looks like
 * a one-page document; Split (its per-page class signal), Classify and Extract then find those answers remembered
 * (stages/classify.ts, stages/extract.ts) and compute everything else as before.
 *
 * The answers are remembered per page, keyed by its content, the class and the project: results are the same with
 * or without reading ahead, only the time differs. A page read ahead that ends up inside a longer document costs
 * its extraction for nothing, so extraction waits until the next page says whether a document starts there (the
 * splitter's own boundary evidence). Files with attachments are not read ahead (an e-invoice decides the class).
 */
import type { Page } from "../model";
import type { ProjectSettings } from "../project";
import { boundaryEvidence, boundaryProbability } from "../split/boundary";
import { pageFeatures, type PageFeatures } from "../split/signals";
import { classifyDocument } from "../stages/classify";
import type { ConvertOptions } from "../stages/convert";
import { extractAhead } from "../stages/extract";
import { splitSettingsOf, stepEnabled } from "../workflow";

interface Seen {
  page: Page;
  classId: string;
  features: PageFeatures;
  /** A document starts at this page (as far as reading ahead can tell). */
  starts: boolean;
}

/** The `onPage` handler for converting one transaction's files; undefined when there is nothing to read ahead. */
export function readAheadOf(project: ProjectSettings, signal?: AbortSignal): ConvertOptions["onPage"] {
  if (!stepEnabled(project, "classify")) return undefined;
  const split = splitSettingsOf(project);
  const extract = stepEnabled(project, "extract");
  // Where documents start: every page (per_page), or where the intelligent splitter would cut; other modes make
  // documents of several pages, so only the classes are read ahead there.
  const mode = !split.enabled ? "none" : split.mode === "per_page" ? "pages" : split.mode.startsWith("intelligent") ? "evidence" : "none";
  let prev: Seen | null = null;
  const extractOne = (seen: Seen) => extractAhead(seen.page, seen.classId, project);
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
      return;
    }
    try {
      const classId = classifyDocument([page], project).class_id;
      if (!extract || mode === "none") return;
      const features = pageFeatures(page, classId);
      const follows = prev && prev.page.source_file_index === page.source_file_index && prev.page.page_number === page.page_number - 1 ? prev : null;
      const starts = mode === "pages" || !follows || boundaryProbability(boundaryEvidence(follows.features, features, { fileBorder: false, blankBetween: false })) >= split.intelligent.boundary_threshold;
      // The previous page began a document and this one begins the next: the previous one is a document alone.
      if (follows?.starts && starts) extractOne(follows);
      prev = { page, classId, features, starts };
      // The file's last page ends its document (unless the next file continues it: rare, and then only time is lost).
      if (starts && page.source_file_page_number === file.pages) extractOne(prev);
    } catch {
      // Only a head start: the stages compute (and report) whatever failed here again.
    }
  }
}
