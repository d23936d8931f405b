/**
 * The JSON export built a piece at a time (src/core/exporters/json-bytes.ts) MUST be byte for byte what
 * JSON.stringify(value, null, 2) + "\n" makes, for results files and for the corners of JSON.stringify.
 */
import { expect, test } from "bun:test";
import { jsonBytes } from "../../../src/core/exporters/json-bytes";

const expected = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");

test("a results-like file: documents and pages element by element, nested values indented, non-Latin-1 text", () => {
  const page = (n: number) => ({
    page_number: n,
    source_filename: "scan – Größe ×2.pdf",
    image_transform: { rotation: 0, deskew_angle: null },
    words: n % 2 ? [] : [{ text: 'Rechnung\n€ 12,50 "quoted"', bbox: [1, 2.5, 3, 4], confidence: 0.98 }],
    text: "line 1\nline 2 日本語",
  });
  const value = {
    transaction_id: "t-1",
    transaction: { created_at: "2026-11-27T00:00:00.000Z", metadata: { nested: { deeper: [1, [2, [3]]] } } },
    validation: { overall_status: "warning", transaction_rule_results: [] },
    documents: [
      { document_id: "d1", fields: { total: { value: 12.5, bbox: null, candidates: [{ v: "12,50" }] } } },
      { document_id: "d2", fields: {}, empty: [], emptyObject: {} },
    ],
    pages: Array.from({ length: 7 }, (_, i) => page(i + 1)),
  };
  expect(jsonBytes(value)).toEqual(expected(value));
});

test("what JSON.stringify leaves out or writes as null, and empty values", () => {
  const sparse: unknown[] = [1];
  sparse[3] = 4; // holes at 1 and 2
  const value = {
    skipped: undefined,
    fn: () => 1,
    sym: Symbol("x"),
    list: [undefined, () => 1, Symbol("y"), null, { toJSON: () => undefined }, { toJSON: () => "j" }],
    sparse,
    date: new Date(0),
    dated: [new Date(0)],
    emptyList: [],
    emptyObject: {},
    n: -0,
    nan: Number.NaN,
    s: "\u2028\u0000",
  };
  expect(new TextDecoder().decode(jsonBytes(value))).toBe(JSON.stringify(value, null, 2) + "\n");
  expect(jsonBytes({})).toEqual(expected({}));
  expect(jsonBytes({ only: undefined })).toEqual(expected({ only: undefined }));
});
