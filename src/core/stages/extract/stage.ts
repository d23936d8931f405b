/** The Extract Stage: each document's fields, then the memory hook (core/memory) may re-read a known issuer's. */
import { pagesOf } from "../run-state";
import type { Stage } from "../types";
import { extractFields, forgetExtractedAhead } from "./index";
import { secondLook } from "./second-look";
import { receiptSecondLook } from "./receipt-look";

/**
 * The memory modules (8 of them, ~15 ms of CPU to load) are required only by a project that remembers issuers: the
 * default project remembers none, and every `docproc process` start paid for them (issue 34).
 */
const memoryHook = () => require("../../memory/recall") as typeof import("../../memory/recall");

export const extractStage: Stage = async (state, ctx) => {
  const fileOfPage = new Map(state.files.flatMap((f) => f.pages.map((p) => [p.page_number, f] as const)));
  for (const [i, doc] of state.documents.entries()) {
    ctx.progress("extract", i, state.documents.length);
    const pages = pagesOf(state, doc);
    const files = [...new Set(pages.map((p) => fileOfPage.get(p.page_number)!).filter(Boolean))];
    const attachments = files.flatMap((f) => f.attachments ?? []);
    const extract = (classId: string, from = pages) => extractFields(from, classId, ctx.project, { attachments });
    // Memory hook: a document of a remembered issuer is read at the remembered places first (src/core/memory).
    const first = { classification: doc.classification, fields: extract(doc.classification.class_id) };
    const { classification, fields } = ctx.project.memory.length
      ? memoryHook().applyMemory(pages, first.classification, first.fields, ctx.project, extract)
      : first;
    // A scan's sums that do not add up (or dates that do not fit) are read again, word by word (second-look.ts);
    // a till receipt's sums rows, when its own arithmetic does not confirm its total (receipt-look.ts).
    const classId = classification.class_id;
    const again = (looked: typeof pages) => extract(classId, looked);
    doc.fields =
      classId === "receipt"
        ? await receiptSecondLook(pages, fields, ctx.ocr, again, ctx.project.locale)
        : await secondLook(pages, fields, ctx.ocr, again);
    if (classification !== doc.classification) {
      doc.classification = classification;
      doc.document_type = classification.type;
      doc.classification_confidence = classification.confidence;
    }
  }
  // Documents extracted ahead that the splitter cut otherwise were never taken: nothing will take them now.
  forgetExtractedAhead(state.pages);
  ctx.progress("extract", state.documents.length, state.documents.length);
};
