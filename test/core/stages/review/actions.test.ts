import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { processTransaction } from "../../../../src/core/pipeline";
import { defaultProject } from "../../../../src/core/project";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr";
import { memorySink } from "../../../../src/core/exporters";
import type { ResultsFile } from "../../../../src/core/model";
import {
  applyReviewAction,
  newReviewState,
  parseReviewAction,
  type ReviewState,
} from "../../../../src/core/stages/review/actions";

const fixtures = resolve(import.meta.dir, "../../../../fixtures");
let ocr: OcrEngine;
let results: ResultsFile;
const ctx = {
  project: defaultProject,
  reviewer: { id: "alice", kind: "user" as const },
  now: new Date("2026-11-24T10:00:00Z"),
};

beforeAll(async () => {
  ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
  const data = new Uint8Array(await Bun.file(`${fixtures}/inbox/born-digital-invoice.pdf`).arrayBuffer());
  // Two invoices the splitter tells apart by their numbers; the third page continues the second (it opens nothing).
  const text =
    "INVOICE\nInvoice number: A-100\nTotal: 10.00\fINVOICE\nInvoice number: B-200\nTotal: 20.00\fpage three of B";
  const meta = {
    transaction_id: "t-1",
    tenant_id: "default",
    project_id: "default",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: "2026-11-24T09:00:00Z",
    source: "test",
  };
  const res = await processTransaction(
    {
      sources: [{ index: 0, filename: "born-digital-invoice.pdf", data, split_policy: "single_document" }],
      documentText: text,
    },
    { meta, project: defaultProject, ocr, sink: memorySink() },
  );
  results = res.results;
});
afterAll(() => ocr.close());

const act = (s: ReviewState, body: unknown) => applyReviewAction(s, parseReviewAction(body), ctx);

describe("review actions", () => {
  test("set_field normalises an amount typed as text, takes the box, confirms the field and records who changed what", () => {
    const s0 = newReviewState(results);
    const doc = s0.results.documents[0]!;
    const box = { coordinates: [10, 20, 110, 40] as [number, number, number, number], page_index: 1 };
    const s1 = act(s0, {
      action: "set_field",
      document_id: doc.document_id,
      field_id: "total_amount",
      value: "1.234,50",
      bounding_boxes: [box],
    });
    const f = s1.results.documents[0]!.fields.total_amount!;
    expect(f).toMatchObject({
      value: 1234.5,
      raw_text: "1.234,50",
      is_confirmed: true,
      review_required: false,
      bounding_boxes: [box],
    });
    expect(s1.version).toBe(s0.version + 1);
    expect(s0.results.documents[0]!.fields.total_amount!.value).not.toBe(1234.5); // input untouched
    const review = s1.results.transaction.last_human_review as any;
    expect(review).toMatchObject({
      reviewed: true,
      finished: false,
      action: "set_field",
      reviewer: { id: "alice" },
      reviewed_at: "2026-11-24T10:00:00.000Z",
    });
    expect(review.changes[0].changes).toContainEqual({
      path: "fields.total_amount.value",
      before: doc.fields.total_amount!.value,
      after: 1234.5,
    });
  });

  test("validation is run again: a total that no longer matches subtotal + tax warns on the changed document", () => {
    const s0 = newReviewState(results);
    const doc = s0.results.documents[0]!;
    expect(doc.fields.subtotal_amount?.value).toEqual(expect.any(Number));
    const s1 = act(s0, {
      action: "set_field",
      document_id: doc.document_id,
      field_id: "total_amount",
      value: "999999.99",
    });
    const rules = s1.results.documents[0]!.validation?.rule_results ?? [];
    expect(rules.find((r) => r.rule_id === "subtotal_plus_tax_is_total")?.status).toBe("warning");
    expect(s1.results.validation.overall_status).not.toBe("success");
  });

  test("set_class re-extracts the fields of the new class and confirms the classification", () => {
    const s0 = newReviewState(results);
    const doc = s0.results.documents[0]!;
    const s1 = act(s0, { action: "set_class", document_id: doc.document_id, class_id: "purchase_order" });
    const d = s1.results.documents[0]!;
    expect(d.classification).toMatchObject({
      class_id: "purchase_order",
      type: "Purchase order",
      confirmed: true,
      review_required: false,
    });
    expect(d.document_type).toBe("Purchase order");
    expect(Object.keys(d.fields).sort()).toEqual([
      "currency",
      "order_date",
      "purchase_order_number",
      "total_amount",
      "vendor_name",
    ]);
    expect(() => act(s0, { action: "set_class", document_id: doc.document_id, class_id: "nope" })).toThrow(
      /unknown class "nope"; allowed: invoice/,
    );
  });

  test("confirm_document confirms the class and every field", () => {
    const s0 = newReviewState(results);
    const id = s0.results.documents[0]!.document_id;
    const s1 = act(s0, { action: "confirm_document", document_id: id });
    const d = s1.results.documents[0]!;
    expect(d.classification.confirmed).toBe(true);
    expect(Object.values(d.fields).every((f) => f.is_confirmed === true && !f.review_required)).toBe(true);
  });

  test("split corrections: split, move the boundary, merge; documents are renumbered and re-read from their pages", () => {
    const s0 = newReviewState(results);
    // documentText pages 2..4 (form feeds) follow the PDF's page 1
    const textDocs = s0.results.documents.filter((d) => d.split.page_numbers.some((n) => n >= 2));
    const all = textDocs.flatMap((d) => d.split.page_numbers).sort();
    expect(all).toEqual([2, 3, 4]);
    // merge everything of the text into one document, then split at page 3 and move the boundary to page 4
    let s = s0;
    while (s.results.documents.length > 2)
      s = act(s, { action: "merge_documents", document_id: s.results.documents[1]!.document_id });
    expect(s.results.documents[1]!.split).toMatchObject({ page_numbers: [2, 3, 4], reason: "review", confidence: 1 });
    s = act(s, { action: "split_document", document_id: s.results.documents[1]!.document_id, at_page: 3 });
    expect(s.results.documents.map((d) => d.split.page_numbers)).toEqual([[1], [2], [3, 4]]);
    expect(s.results.documents.map((d) => d.document_index)).toEqual([0, 1, 2]);
    expect(s.results.documents[2]!.fields.invoice_number?.value).toBe("B-200");
    s = act(s, { action: "move_boundary", document_id: s.results.documents[2]!.document_id, first_page: 4 });
    expect(s.results.documents.map((d) => d.split.page_numbers)).toEqual([[1], [2, 3], [4]]);
    expect(s.results.documents[1]!.fields.invoice_number?.value).toBe("A-100");
    expect(() => act(s, { action: "merge_documents", document_id: s.results.documents[2]!.document_id })).toThrow(
      /last document/,
    );
    expect(() =>
      act(s, { action: "split_document", document_id: s.results.documents[1]!.document_id, at_page: 2 }),
    ).toThrow(/other than its first/);
  });

  test("finish closes the review: last_human_review says finished, later actions are refused", () => {
    const s0 = newReviewState(results);
    const s1 = act(s0, { action: "confirm_document", document_id: s0.results.documents[0]!.document_id });
    const s2 = act(s1, { action: "finish" });
    expect(s2.finished_at).toBe("2026-11-24T10:00:00.000Z");
    expect(s2.results.transaction.last_human_review).toMatchObject({
      reviewed: true,
      finished: true,
      action: "finish",
    });
    expect(() => act(s2, { action: "finish" })).toThrow(/already finished/);
  });

  test("bad bodies are invalid_input naming the field; unknown documents and fields are not_found", () => {
    expect(() => parseReviewAction({ action: "set_field", document_id: "x" })).toThrow(/field_id/);
    expect(() => parseReviewAction({ action: "explode" })).toThrow(/action/);
    const s0 = newReviewState(results);
    expect(() => act(s0, { action: "confirm_field", document_id: "nope", field_id: "x" })).toThrow(/document "nope"/);
    expect(() =>
      act(s0, { action: "confirm_field", document_id: s0.results.documents[0]!.document_id, field_id: "shoe_size" }),
    ).toThrow(/field "shoe_size"/);
  });
});
