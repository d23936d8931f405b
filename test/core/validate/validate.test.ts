import { describe, expect, test } from "bun:test";
import type { DocumentResult, FieldResult, FieldValue } from "../../../src/core/model";
import { defaultProject, parseProjectSettings } from "../../../src/core/project";
import {
  overallStatus,
  transactionStatus,
  validateDocument,
  validateTransaction,
} from "../../../src/core/stages/validate";

const field = (value: FieldValue): FieldResult => ({
  name: "x",
  value,
  confidence: 1,
  bounding_boxes: [],
  reasoning: "",
  review_required: false,
  is_confirmed: null,
});

function doc(values: Record<string, FieldValue>, classId = "invoice", index = 0): DocumentResult {
  return {
    document_id: `d${index}`,
    document_index: index,
    document_type: classId,
    classification_confidence: 1,
    classification: {
      class_id: classId,
      type: classId,
      confidence: 1,
      reasoning: "",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "per_file",
      policy: "inherit",
      confidence: 1,
      reason: "",
      review_required: false,
      page_numbers: [1],
      source_file_indexes: [0],
    },
    fields: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, field(v)])),
  };
}

const good = {
  invoice_number: "A-1",
  invoice_date: "2024-03-01",
  due_date: "2024-03-31",
  currency: "EUR",
  subtotal_amount: 100,
  tax_amount: 19,
  total_amount: 119,
  line_items: [
    { description: "a", quantity: 1, unit_price: 60, amount: 60 },
    { description: "b", quantity: 1, unit_price: 40, amount: 40 },
  ],
};

describe("validateDocument with the default rules", () => {
  test("a consistent invoice has no validation object", () => {
    expect(validateDocument(doc(good), defaultProject)).toBeUndefined();
  });

  test("subtotal + tax differing from total beyond the tolerance is a warning naming the fields", () => {
    const v = validateDocument(doc({ ...good, total_amount: 120 }), defaultProject)!;
    expect(v.overall_status).toBe("warning");
    const r = v.rule_results.find((x) => x.rule_id === "subtotal_plus_tax_is_total")!;
    expect(r.status).toBe("warning");
    expect(r.field_ids).toEqual(["subtotal_amount", "tax_amount", "total_amount"]);
    expect(r.message).toContain("119.00");
    // Other applicable rules are reported too, as successes.
    expect(v.rule_results.find((x) => x.rule_id === "line_items_sum_to_subtotal")!.status).toBe("success");
  });

  test("within the tolerance counts as equal", () => {
    expect(validateDocument(doc({ ...good, total_amount: 119.01 }), defaultProject)).toBeUndefined();
  });

  test("line amounts that do not add up to the subtotal and a due date before the invoice date are reported", () => {
    const v = validateDocument(
      doc({
        ...good,
        due_date: "2024-02-01",
        line_items: [{ description: "a", quantity: 1, unit_price: 60, amount: 60 }],
      }),
      defaultProject,
    )!;
    const failed = v.rule_results.filter((r) => r.status !== "success").map((r) => r.rule_id);
    expect(failed.sort()).toEqual(["due_date_not_before_invoice_date", "line_items_sum_to_subtotal"]);
  });

  test("without a subtotal, line items are checked against total − tax: 3.89 of items against a 34.73 total warns", () => {
    const { subtotal_amount: _, ...noSubtotal } = good;
    const items = [{ description: "Exchange 2010", quantity: 1, unit_price: 3.89, amount: 3.89 }];
    const v = validateDocument(
      doc({ ...noSubtotal, tax_amount: null, total_amount: 34.73, line_items: items }),
      defaultProject,
    )!;
    const r = v.rule_results.find((x) => x.rule_id === "line_items_sum_to_subtotal")!;
    expect(r.status).toBe("warning");
    expect(r.message).toContain("3.89");
    expect(r.message).toContain("34.73");
    expect(r.field_ids).toEqual(["line_items", "subtotal_amount", "total_amount"]);
    // The full table adds up to total − tax: success.
    const all = validateDocument(doc({ ...noSubtotal, tax_amount: 19, total_amount: 119 }), defaultProject);
    expect(all).toBeUndefined();
    // A row whose amount was not read leaves the amounts read to add up on their own.
    const partial = validateDocument(
      doc({
        ...good,
        line_items: [...good.line_items, { description: "c", quantity: 1, unit_price: null, amount: null }],
      }),
      defaultProject,
    );
    expect(partial).toBeUndefined();
  });

  test("gross line amounts that add up to the total (tax included) pass, naming the total; adding up to neither warns", () => {
    const gross = [
      { description: "a", quantity: 1, unit_price: 71.4, amount: 71.4 },
      { description: "b", quantity: 1, unit_price: 47.6, amount: 47.6 },
    ];
    const v = validateDocument(doc({ ...good, line_items: gross }), defaultProject);
    expect(v).toBeUndefined();
    const off = validateDocument(
      doc({ ...good, line_items: [{ ...gross[0]!, amount: 80 }, gross[1]!] }),
      defaultProject,
    )!;
    const r = off.rule_results.find((x) => x.rule_id === "line_items_sum_to_subtotal")!;
    expect(r.status).toBe("warning");
    expect(r.message).toContain("127.60");
    expect(r.field_ids).toEqual(["line_items", "subtotal_amount"]);
    // The passing check says which total it matched, for the reviewer (shown when another rule fails).
    const shown = validateDocument(doc({ ...good, due_date: "2024-02-01", line_items: gross }), defaultProject)!;
    const matched = shown.rule_results.find((x) => x.rule_id === "line_items_sum_to_subtotal")!;
    expect(matched.status).toBe("success");
    expect(matched.message).toContain("equals total_amount 119.00");
    expect(matched.field_ids).toEqual(["line_items", "total_amount"]);
  });

  test("a missing required field warns; rules whose fields are empty do not apply", () => {
    const v = validateDocument(doc({ ...good, invoice_number: null, tax_amount: null }), defaultProject)!;
    expect(v.rule_results.find((r) => r.rule_id === "invoice_number_required")!.status).toBe("warning");
    expect(v.rule_results.find((r) => r.rule_id === "subtotal_plus_tax_is_total")).toBeUndefined();
  });

  test("class_ids limit a rule to documents of those classes", () => {
    expect(validateDocument(doc({ invoice_number: null }, "receipt"), defaultProject)).toBeUndefined();
  });
});

describe("configurable rules", () => {
  const project = parseProjectSettings({
    ...defaultProject,
    validation_rules: [
      { id: "total_range", type: "range", field: "total_amount", min: 0, max: 1000, severity: "error" },
      { id: "currency_allowed", type: "allowed_values", field: "currency", values: ["EUR", "USD"] },
      { id: "number_format", type: "pattern", field: "invoice_number", pattern: "^[A-Z]-\\d+$" },
      { id: "number_unique", type: "unique_in_transaction", field: "invoice_number" },
    ],
  });

  test("range errors make the document an error; allowed values and patterns warn", () => {
    const v = validateDocument(doc({ ...good, total_amount: 5000, currency: "GBP", invoice_number: "bad" }), project)!;
    expect(v.overall_status).toBe("error");
    const byId = Object.fromEntries(v.rule_results.map((r) => [r.rule_id, r.status]));
    expect(byId).toEqual({ total_range: "error", currency_allowed: "warning", number_format: "warning" });
  });

  test("allowed values compare case-insensitively", () => {
    expect(validateDocument(doc({ ...good, currency: "eur" }), project)).toBeUndefined();
  });

  test("a number repeated across documents is a transaction warning; unique numbers succeed", () => {
    const dup = validateTransaction(
      [doc(good, "invoice", 0), doc(good, "invoice", 1), doc({ ...good, invoice_number: "B-2" }, "invoice", 2)],
      project,
    );
    expect(dup).toHaveLength(1);
    expect(dup[0]!.status).toBe("warning");
    expect(dup[0]!.message).toContain("documents 0, 1");
    expect(
      validateTransaction([doc(good, "invoice", 0), doc({ ...good, invoice_number: "B-2" }, "invoice", 1)], project)[0]!
        .status,
    ).toBe("success");
    expect(validateTransaction([], project)).toEqual([]);
  });
});

describe("default transaction rules", () => {
  test("the same invoice number twice in one transaction is a warning; receipts are not checked", () => {
    const r = validateTransaction(
      [doc(good, "invoice", 0), doc(good, "invoice", 1), doc(good, "receipt", 2)],
      defaultProject,
    );
    expect(r).toEqual([
      expect.objectContaining({
        rule_id: "invoice_number_unique",
        status: "warning",
        message: expect.stringContaining("documents 0, 1"),
      }),
    ]);
  });
});

describe("overall status", () => {
  test("error beats warning beats success", () => {
    expect(overallStatus([])).toBe("success");
    expect(overallStatus([{ status: "success" }, { status: "warning" }])).toBe("warning");
    expect(overallStatus([{ status: "warning" }, { status: "error" }])).toBe("error");
    const warned = { ...doc(good), validation: { overall_status: "warning" as const, rule_results: [] } };
    expect(transactionStatus([doc(good), warned], [{ rule_id: "r", status: "success", message: "" }])).toBe("warning");
  });
});
