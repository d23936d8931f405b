/**
 * The built-in stages (convert and OCR from convert-stages.ts) and the workflow stages: split, classify, extract,
 * validate, review, export and notify, each calling its stage's functions in core/stages/. Each reads and changes
 * the run state; the runner skips a disabled node, except Split, which then makes one document per source
 * file (spec rule 5).
 *
 * Split creates the documents (unclassified, no fields); Classify fills `classification`, Extract `fields`,
 * Validate `validation` and the transaction rules. A document that skipped Classify stays `other` at confidence 0.
 */
import { DocprocError } from "../errors";
import { runExports } from "../exporters";
import type { Classification, DocumentResult, Page } from "../model";
import { buildResultsFile } from "../results";
import { classifyDocument } from "../stages/classify";
import { readEInvoice } from "../extract/einvoice";
import { extractFields } from "../stages/extract";
import { applyMemory } from "../memory/recall";
import { splitInfoOf, splitPages } from "../stages/split";
import { unreadablePageResults, validateDocument, validateTransaction, withResults } from "../stages/validate";
import { einvoiceValidation } from "../einvoice/validate/rule-results";
import { exportProfilesOf } from "../workflow";
import { convertStage, ocrStage, splitFilesOf, suspendFiles } from "./convert-stages";
import type { RunState, Stage, StageContext, StageName } from "../stages/types";
import { pushAll } from "../arrays";

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

export const classifyStage: Stage = async (state, ctx) => {
  const fileOfPage = new Map(state.files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  for (const doc of state.documents) {
    const pages = pagesOf(state, doc);
    // An e-invoice among the document's files says what the document is (its type code).
    const attachments = [
      ...new Set(pages.map((p) => fileOfPage.get(p.page_number)).filter((f) => f !== undefined)),
    ].flatMap((f) => f.attachments ?? []);
    const einvoiceTypeCode = attachments.length ? (readEInvoice(attachments)?.type_code ?? null) : null;
    const classification = classifyDocument(pages, ctx.project, undefined, { einvoiceTypeCode });
    doc.classification = classification;
    doc.document_type = classification.type;
    doc.classification_confidence = classification.confidence;
  }
};

export const extractStage: Stage = async (state, ctx) => {
  const fileOfPage = new Map(state.files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  for (const [i, doc] of state.documents.entries()) {
    ctx.progress("extract", i, state.documents.length);
    const pages = pagesOf(state, doc);
    const files = [...new Set(pages.map((p) => fileOfPage.get(p.page_number)!).filter(Boolean))];
    const attachments = files.flatMap((f) => f.attachments ?? []);
    const extract = (classId: string) => extractFields(pages, classId, ctx.project, { attachments });
    // Memory hook: a document of a remembered issuer is read at the remembered places first (src/core/memory).
    const { classification, fields } = applyMemory(
      pages,
      doc.classification,
      extract(doc.classification.class_id),
      ctx.project,
      extract,
    );
    doc.fields = fields;
    if (classification !== doc.classification) {
      doc.classification = classification;
      doc.document_type = classification.type;
      doc.classification_confidence = classification.confidence;
    }
  }
  ctx.progress("extract", state.documents.length, state.documents.length);
};

export const validateStage: Stage = async (state, ctx) => {
  const fileOfPage = new Map(state.files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  for (const doc of state.documents) {
    // An e-invoice among the document's files is checked against EN 16931 (and the CIUS it claims).
    const files = [
      ...new Set(
        pagesOf(state, doc)
          .map((p) => fileOfPage.get(p.page_number))
          .filter((f) => f !== undefined),
      ),
    ];
    const attachments = files.flatMap((f) => f.attachments ?? []);
    const einvoice = attachments.length ? await einvoiceValidation(attachments) : [];
    // Its pages and the separator sheets it was cut at: an unreadable page, read as empty, may have become one.
    const own = new Set([...doc.split.page_numbers, ...(doc.split.separator_pages ?? [])]);
    const validation = withResults(
      validateDocument(doc, ctx.project, einvoice),
      unreadablePageResults(state.pages.filter((p) => own.has(p.page_number))),
    );
    if (validation) doc.validation = validation;
    else delete doc.validation;
  }
  state.transactionRules = validateTransaction(state.documents, ctx.project).concat(unreadablePageResults(state.pages));
};

/**
 * The built-in Review slot passes through: the server plugs in `reviewStage` (core/review/stage.ts, pauses for a
 * reviewer) through `RunOptions.stages.review`; the CLI never pauses (`docproc review` opens marked files later).
 */
export const noReviewStage: Stage = async () => {};

export const exportStage: Stage = async (state, ctx) => {
  ctx.progress("export", 0, 1);
  const profiles = ctx.profiles ?? exportProfilesOf(ctx.project);
  // One instant for the results and every file written from them: two reads of the clock a millisecond apart gave
  // the outcome and the exported file different `exported_at`s.
  const at = ctx.now();
  const now = () => at;
  const results = resultsOf(state, { meta: ctx.meta, now });
  state.exported = results;
  state.manifest = await runExports(
    { results, pages: state.pages, sources: state.sources, sink: ctx.sink, now, signal: ctx.signal },
    profiles,
  );
  ctx.progress("export", 1, 1);
  for (const [id, entry] of Object.entries(state.manifest.profiles)) {
    if (entry.error)
      state.errors.push({ stage: "export", code: "export_failed", message: `profile ${id}: ${entry.error}` });
  }
};

/** A Notification node: its `reached` delivery with the manifest as it is now (empty before Export). */
export const notifyStage: Stage = async (state, ctx) => {
  const activity = ctx.step.activity;
  if (!activity) return; // an unconfigured node (no webhook_url yet) sends nothing
  const res = await ctx.notify({ event: "reached", step: { ...ctx.step, activity }, manifest: state.manifest });
  if (res?.warnings) pushAll(state.warnings, res.warnings);
  if (res?.failWorkflow) throw new DocprocError("delivery_failed", res.failWorkflow, { stage: "notify" });
};

export const BUILTIN_STAGES: Record<StageName, Stage> = {
  convert: convertStage,
  ocr: ocrStage,
  split: splitStage,
  classify: classifyStage,
  extract: extractStage,
  validate: validateStage,
  review: noReviewStage,
  export: exportStage,
  notify: notifyStage,
};

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
