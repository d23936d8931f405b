/**
 * The Split Stage: turns the run's page stream into documents (unclassified, no fields). With the Split step
 * disabled every source file is one document (spec rule 5). Also the split's share of the OCR stage: separator
 * detection on the grey raster OCR just read.
 */
import type { Classification, Page, RasterImage, SourceInput } from "../../model";
import type { ProjectSettings } from "../../project";
import { readEInvoice } from "../../extract/einvoice";
import { splitSettingsOf } from "../../workflow";
import { classifyDocument } from "../classify";
import { suspendFiles } from "../run-state";
import type { OpenFile, Stage } from "../types";
import { analysePage, separatorNeedsOf, splitInfoOf, splitPages, type SplitFile } from "./index";

const unclassified = (): Classification => ({
  class_id: "other",
  type: "Other",
  confidence: 0,
  reasoning: "not classified (the Classify step did not run)",
  alternatives: [],
  confirmed: null,
  review_required: false,
});

export const splitStage: Stage = async (state, ctx) => {
  const settings = ctx.step.enabled ? ctx.project.split : { ...ctx.project.split, enabled: false };
  const splitFiles = splitFilesOf(state.files, state.sources);
  ctx.progress("split", 0, 1);
  // The class-change boundary signal needs the classifier; cue rules are cheap enough to run per candidate.
  const spans = await splitPages(splitFiles, settings, {
    classify: (pages) => classifyDocument(pages, ctx.project),
    signal: ctx.signal,
  });
  ctx.progress("split", 1, 1);
  state.spans = spans;
  state.documents = spans.map((span, i) => ({
    document_id: crypto.randomUUID(),
    document_index: i,
    document_type: "Other",
    classification_confidence: 0,
    classification: unclassified(),
    split: splitInfoOf(span, settings, splitFiles, ctx.project.review_thresholds.split),
    fields: {},
  }));
  state.transactionRules = [];
  await suspendFiles(state.files);
};

export function splitFilesOf(files: OpenFile[], sources: SourceInput[]): SplitFile[] {
  const policyOf = (index: number) => sources.find((s) => s.index === index)?.split_policy ?? "inherit";
  // A file carrying an e-invoice (ZUGFeRD/Factur-X PDF, a standalone XML) is the one document its XML describes: its
  // terms pages are not a contract of their own.
  const single = (f: OpenFile) => (f.attachments?.length ? readEInvoice(f.attachments) !== null : false);
  return files.map((f) => {
    const policy = policyOf(f.source_file_index);
    return {
      index: f.source_file_index,
      filename: f.filename,
      policy: policy === "inherit" && single(f) ? "single_document" : policy,
      pages: f.pages,
    };
  });
}

/**
 * Scanned pages are rendered once: separator detection (barcodes, blank pages) runs on the grey raster the OCR stage
 * read, after the reading, so a page the text already rules out is never scanned for barcodes. A failure here
 * leaves the page to Split's own analysis.
 */
export function analyseAfterReading(
  splitFiles: SplitFile[],
  project: ProjectSettings,
  signal?: AbortSignal,
): (page: Page, grey: RasterImage) => Promise<void> {
  const settings = splitSettingsOf(project);
  const needs = separatorNeedsOf(splitFiles, settings);
  return async (page, grey) => {
    const need = needs.get(page);
    if (need) await analysePage(page, settings.separator, need, grey, signal);
  };
}
