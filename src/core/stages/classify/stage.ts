/** The Classify Stage: each document's class (an e-invoice among its files says it by its type code). */
import { readEInvoice } from "../../extract/einvoice";
import { pagesOf } from "../run-state";
import type { Stage } from "../types";
import { classifyDocument, forgetClassifications } from "./index";

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
  // Split asked each page's class and this stage each document's: nothing asks again, so nothing stays remembered.
  forgetClassifications(state.pages);
};
