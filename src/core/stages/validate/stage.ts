/** The Validate Stage: each document's rules (and its e-invoice's EN 16931 checks), then the transaction's. */
import { einvoiceValidation } from "../../einvoice/validate/rule-results";
import { pagesOf } from "../run-state";
import type { Stage } from "../types";
import { unreadablePageResults, validateDocument, validateTransaction, withResults } from "./index";

export const validateStage: Stage = async (state, ctx) => {
  const fileOfPage = new Map(state.files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  // Only unreadable pages make results: each document looks among those (usually none), not among all pages.
  const unreadable = state.pages.filter((p) => p.unreadable !== undefined);
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
      unreadablePageResults(unreadable.filter((p) => own.has(p.page_number))),
    );
    if (validation) doc.validation = validation;
    else delete doc.validation;
  }
  state.transactionRules = validateTransaction(state.documents, ctx.project).concat(unreadablePageResults(state.pages));
};
