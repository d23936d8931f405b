/** Documents of a transaction, with their classification, split and validation; fields live in fields.ts. */
import type { DocumentResult } from "../../core/model";
import { json, type Db } from "../schema/db";
import { fieldsOf, insertFields } from "./fields";

interface Row {
  document_id: string;
  transaction_id: string;
  document_index: number;
  document_type: string;
  classification_confidence: number;
  classification: string;
  split: string;
  validation: string | null;
}

/** MUST be called inside the caller's transaction, after deleteDocuments, so a re-run never duplicates documents. */
export function insertDocuments(db: Db, transactionId: string, docs: DocumentResult[]): void {
  const stmt = db.query(
    `INSERT INTO documents (document_id, transaction_id, document_index, document_type, classification_confidence,
       classification, split, validation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const d of docs) {
    stmt.run(
      d.document_id,
      transactionId,
      d.document_index,
      d.document_type,
      d.classification_confidence,
      JSON.stringify(d.classification),
      JSON.stringify(d.split),
      d.validation ? JSON.stringify(d.validation) : null,
    );
    insertFields(db, d.document_id, d.fields ?? {});
  }
}

export function deleteDocuments(db: Db, transactionId: string): void {
  // fields go with their documents (ON DELETE CASCADE)
  db.query("DELETE FROM documents WHERE transaction_id = ?").run(transactionId);
}

export function listDocuments(db: Db, transactionId: string): DocumentResult[] {
  const rows = db
    .query<Row, [string]>("SELECT * FROM documents WHERE transaction_id = ? ORDER BY document_index")
    .all(transactionId);
  const fields = fieldsOf(
    db,
    rows.map((r) => r.document_id),
  );
  return rows.map((r) => {
    const doc: DocumentResult = {
      document_id: r.document_id,
      document_index: r.document_index,
      document_type: r.document_type,
      classification_confidence: r.classification_confidence,
      classification: json(r.classification, {} as DocumentResult["classification"]),
      split: json(r.split, {} as DocumentResult["split"]),
      fields: fields.get(r.document_id) ?? {},
    };
    if (r.validation) doc.validation = json(r.validation, undefined);
    return doc;
  });
}

export function countDocuments(db: Db, transactionId: string): number {
  return db
    .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM documents WHERE transaction_id = ?")
    .get(transactionId)!.n;
}
