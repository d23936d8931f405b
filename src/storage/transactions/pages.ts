/** Pages of a transaction (the results file's pages[] without word-level data, which lives in the export files). */
import type { ResultsPage } from "../../core/model";
import { json, type Db } from "../schema/db";

interface Row {
  transaction_id: string;
  page_number: number;
  source_file_index: number;
  source_filename: string;
  source_file_page_number: number;
  text_source: string;
  ocr_confidence: number | null;
  image_transform: string;
  text: string;
}

export interface StoredPage extends ResultsPage {
  source_file_index: number;
}

/** MUST be called inside the caller's transaction, after deletePages, so a re-run never duplicates rows. */
export function insertPages(
  db: Db,
  transactionId: string,
  pages: Array<ResultsPage & { source_file_index?: number }>,
): void {
  const stmt = db.query(
    `INSERT INTO pages (transaction_id, page_number, source_file_index, source_filename, source_file_page_number,
       text_source, ocr_confidence, image_transform, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const p of pages) {
    stmt.run(
      transactionId,
      p.page_number,
      p.source_file_index ?? -1,
      p.source_filename,
      p.source_file_page_number,
      p.text_source,
      p.ocr_confidence,
      JSON.stringify(p.image_transform),
      p.text ?? "",
    );
  }
}

export function deletePages(db: Db, transactionId: string): void {
  db.query("DELETE FROM pages WHERE transaction_id = ?").run(transactionId);
}

export function listPages(db: Db, transactionId: string): StoredPage[] {
  return db
    .query<Row, [string]>("SELECT * FROM pages WHERE transaction_id = ? ORDER BY page_number")
    .all(transactionId)
    .map((r) => ({
      page_number: r.page_number,
      transaction_page_number: r.page_number,
      source_file_index: r.source_file_index,
      source_filename: r.source_filename,
      source_file_page_number: r.source_file_page_number,
      image_transform: json(r.image_transform, {} as ResultsPage["image_transform"]),
      text_source: r.text_source as ResultsPage["text_source"],
      ocr_confidence: r.ocr_confidence,
    }));
}
