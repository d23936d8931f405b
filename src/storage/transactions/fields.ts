/** Extracted fields of a document, keyed by field id. */
import type { FieldResult } from "../../core/model";
import { json, type Db } from "../schema/db";
import { inChunks } from "./in-chunks";

interface Row {
  document_id: string;
  field_id: string;
  name: string;
  value: string | null;
  confidence: number;
  bounding_boxes: string;
  reasoning: string;
  review_required: number;
  is_confirmed: number | null;
  raw_text: string | null;
}

export function insertFields(db: Db, documentId: string, fields: Record<string, FieldResult>): void {
  const stmt = db.query(
    `INSERT INTO fields (document_id, field_id, name, value, confidence, bounding_boxes, reasoning, review_required,
       is_confirmed, raw_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, f] of Object.entries(fields)) {
    stmt.run(
      documentId,
      id,
      f.name,
      JSON.stringify(f.value ?? null),
      f.confidence,
      JSON.stringify(f.bounding_boxes ?? []),
      f.reasoning ?? "",
      f.review_required ? 1 : 0,
      f.is_confirmed === null || f.is_confirmed === undefined ? null : f.is_confirmed ? 1 : 0,
      f.raw_text ?? null,
    );
  }
}

export function fieldsOf(db: Db, documentIds: string[]): Map<string, Record<string, FieldResult>> {
  const out = new Map<string, Record<string, FieldResult>>(documentIds.map((id) => [id, {}]));
  if (documentIds.length === 0) return out;
  // Chunks of 500 documents (a per-page split of a 10,000-page file makes 10,000): bounded parameter lists and
  // spreads (stack-safe: at most 500 per call). Rows stay in rowid order within a document, which is what counts.
  const rows = inChunks(documentIds, (chunk, marks) =>
    db.query<Row, string[]>(`SELECT * FROM fields WHERE document_id IN (${marks}) ORDER BY rowid`).all(...chunk),
  );
  for (const r of rows) {
    const field: FieldResult = {
      name: r.name,
      value: json(r.value, null),
      confidence: r.confidence,
      bounding_boxes: json(r.bounding_boxes, []),
      reasoning: r.reasoning,
      review_required: r.review_required === 1,
      is_confirmed: r.is_confirmed === null ? null : r.is_confirmed === 1,
    };
    if (r.raw_text !== null) field.raw_text = r.raw_text;
    out.get(r.document_id)![r.field_id] = field;
  }
  return out;
}
