/**
 * Passwords of encrypted source files. MUST be readable only by the job that converts the files (`passwordsOf`),
 * MUST never be returned by an API view, and MUST be wiped (`wipePasswords`, which keeps the fact that there was
 * one) when the transaction reaches completed or failed: storage/transactions/transactions.ts calls it from markCompleted and
 * markFailed.
 */
import { isPostgres, type Db } from "../schema/db";

export function setSourceFilePassword(db: Db, transactionId: string, fileIndex: number, password: string): void {
  db.query(
    "INSERT INTO source_file_passwords (transaction_id, file_index, password) VALUES (?, ?, ?) ON CONFLICT (transaction_id, file_index) DO UPDATE SET password = excluded.password",
  ).run(transactionId, fileIndex, password);
}

/** file_index → password, for the files of a transaction that were given one. */
export function passwordsOf(db: Db, transactionId: string): Map<number, string> {
  const rows = db
    .query<{ file_index: number; password: string }, [string]>(
      "SELECT file_index, password FROM source_file_passwords WHERE transaction_id = ? AND password IS NOT NULL",
    )
    .all(transactionId);
  return new Map(rows.map((r) => [r.file_index, r.password]));
}

/** The file indexes that were given a password, also after the wipe (never the passwords themselves). */
export function indexesWithPassword(db: Db, transactionId: string): Set<number> {
  return new Set(
    db
      .query<{ file_index: number }, [string]>("SELECT file_index FROM source_file_passwords WHERE transaction_id = ?")
      .all(transactionId)
      .map((r) => r.file_index),
  );
}

/**
 * Forgets a transaction's passwords (the rows stay, with password NULL). secure_delete makes SQLite overwrite freed
 * cell space with zeros, so the plain text does not linger in free space of the database file (a copy may stay in
 * the WAL until the next checkpoint overwrites it).
 */
export function wipePasswords(db: Db, transactionId: string): void {
  // PostgreSQL has no such switch: a dead row's bytes stay until VACUUM reuses the page (docs/scaling.md).
  if (isPostgres(db)) {
    db.query("UPDATE source_file_passwords SET password = NULL WHERE transaction_id = ? AND password IS NOT NULL").run(
      transactionId,
    );
    return;
  }
  db.exec("PRAGMA secure_delete = ON");
  try {
    db.query("UPDATE source_file_passwords SET password = NULL WHERE transaction_id = ? AND password IS NOT NULL").run(
      transactionId,
    );
  } finally {
    db.exec("PRAGMA secure_delete = OFF");
  }
}
