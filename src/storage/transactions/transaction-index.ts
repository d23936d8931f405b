/**
 * Index fields of a transaction: scalar field values of its documents, searchable (`search`), filterable
 * (`index_filter`, filter_expression `idx_<name>`) and sortable (`sort_by=idx_<name>`). The first document holding a
 * field gives its value.
 */
import type { DocumentResult } from "../../core/model";
import type { Db } from "../schema/db";

export function indexValuesOf(documents: DocumentResult[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of documents) {
    for (const [id, f] of Object.entries(d.fields ?? {})) {
      if (out.has(id)) continue;
      const v = f.value;
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out.set(id, String(v));
    }
  }
  return out;
}

/** MUST run inside the caller's transaction. */
export function replaceIndex(db: Db, transactionId: string, values: Map<string, string>): void {
  db.query("DELETE FROM transaction_index WHERE transaction_id = ?").run(transactionId);
  const stmt = db.query("INSERT INTO transaction_index (transaction_id, name, value) VALUES (?, ?, ?)");
  for (const [name, value] of values) stmt.run(transactionId, name, value);
}

export function indexOf(db: Db, transactionId: string): Record<string, string> {
  const rows = db
    .query<{ name: string; value: string }, [string]>(
      "SELECT name, value FROM transaction_index WHERE transaction_id = ?",
    )
    .all(transactionId);
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}
