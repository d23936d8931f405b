/**
 * The tabular view shared by CSV and XLSX: one row per document, or one row per line item.
 * Column ids are document columns (`DOCUMENT_COLUMNS`), field ids (scalar fields), and for line-item rows
 * `line_number` and the item keys. A chosen column that matches nothing stays empty (it is not an error: a field
 * may be missing from one transaction and present in the next).
 */
import type { DocumentResult, FieldValue, ResultsFile } from "../model";

export type Cell = string | number | boolean | null;
export interface Table {
  columns: string[];
  rows: Cell[][];
}

export const DOCUMENT_COLUMNS = [
  "document_id",
  "document_index",
  "document_type",
  "classification_confidence",
  "page_numbers",
  "validation_status",
] as const;
const LINE_META = ["document_id", "document_index", "document_type", "line_number"];

type Row = Record<string, Cell>;
type LineItems = Array<Record<string, FieldValue>>;

function toCell(value: FieldValue | undefined): Cell {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return JSON.stringify(value);
  return value;
}

function documentRow(doc: DocumentResult): Row {
  const row: Row = {
    document_id: doc.document_id,
    document_index: doc.document_index,
    document_type: doc.document_type,
    classification_confidence: doc.classification_confidence,
    page_numbers: doc.split.page_numbers.join(" "),
    validation_status: doc.validation?.overall_status ?? "success",
  };
  for (const [id, field] of Object.entries(doc.fields)) {
    if (!Array.isArray(field.value) && !(id in row)) row[id] = toCell(field.value);
  }
  return row;
}

/** The line items of a document: the named table field, else the first table-valued field. */
export function lineItemsOf(doc: DocumentResult, fieldId: string | null): LineItems {
  if (fieldId) {
    const value = doc.fields[fieldId]?.value;
    return Array.isArray(value) ? value : [];
  }
  const table = Object.values(doc.fields).find((f) => Array.isArray(f.value));
  return (table?.value as LineItems | undefined) ?? [];
}

function lineRows(doc: DocumentResult, fieldId: string | null): Row[] {
  const base = documentRow(doc);
  return lineItemsOf(doc, fieldId).map((item, i) => {
    const row: Row = { ...base, line_number: i + 1 };
    for (const [key, value] of Object.entries(item)) row[key] = toCell(value);
    return row;
  });
}

function collectKeys(rows: Row[], start: readonly string[]): string[] {
  const keys = new Set(start);
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  return [...keys];
}

function itemKeys(docs: DocumentResult[], fieldId: string | null): string[] {
  const keys = new Set<string>();
  for (const doc of docs) for (const item of lineItemsOf(doc, fieldId)) for (const k of Object.keys(item)) keys.add(k);
  return [...keys];
}

function toTable(rows: Row[], columns: string[]): Table {
  return { columns, rows: rows.map((r) => columns.map((c) => (c in r ? r[c]! : null))) };
}

export function documentTable(results: ResultsFile, columns: string[] | null): Table {
  const rows = results.documents.map(documentRow);
  return toTable(rows, columns ?? collectKeys(rows, DOCUMENT_COLUMNS));
}

/** Default columns: document id/index/type, line_number, then the union of item keys in first-seen order. */
export function lineItemTable(results: ResultsFile, columns: string[] | null, fieldId: string | null): Table {
  const rows = results.documents.flatMap((d) => lineRows(d, fieldId));
  return toTable(rows, columns ?? [...LINE_META, ...itemKeys(results.documents, fieldId)]);
}
