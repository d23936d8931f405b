/**
 * Source files of a transaction. MUST give each a 0-based index in request order, MUST rename a repeated name to
 * `name_1.ext`, `name_2.ext`, and MUST return the original row (storing nothing) for an upload token already recorded.
 */
import { DocprocError } from "../../core/errors";
import type { SplitPolicy } from "../../core/model";
import type { Db } from "../schema/db";
import { setSourceFilePassword } from "./source-file-passwords";

export interface SourceFileRecord {
  transaction_id: string;
  file_index: number;
  filename: string;
  original_name: string;
  content_type: string;
  size: number;
  blob_hash: string;
  split_policy: SplitPolicy;
  upload_token: string | null;
  uploaded_at: string;
}

export interface NewSourceFile {
  transaction_id: string;
  /** Requested index (the `file_index` query plus the position); next free index when absent. */
  index?: number;
  filename: string;
  content_type: string;
  size: number;
  blob_hash: string;
  split_policy: SplitPolicy;
  upload_token?: string | null;
  /** Password of an encrypted PDF; kept in source_file_passwords until the transaction ends, never returned. */
  password?: string | null;
  now: string;
}

export function listSourceFiles(db: Db, transactionId: string): SourceFileRecord[] {
  return db
    .query<SourceFileRecord, [string]>("SELECT * FROM source_files WHERE transaction_id = ? ORDER BY file_index")
    .all(transactionId);
}

export function findByUploadToken(db: Db, transactionId: string, token: string): SourceFileRecord | null {
  return (
    db
      .query<SourceFileRecord, [string, string]>(
        "SELECT * FROM source_files WHERE transaction_id = ? AND upload_token = ?",
      )
      .get(transactionId, token) ?? null
  );
}

/** `a.pdf` → `a_1.pdf`, `a_2.pdf`...; the first free name wins. */
export function uniqueName(taken: Set<string>, filename: string): string {
  if (!taken.has(filename)) return filename;
  const dot = filename.lastIndexOf(".");
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  const ext = dot > 0 ? filename.slice(dot) : "";
  for (let n = 1; ; n++) {
    const candidate = `${stem}_${n}${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Records one file; `duplicate` is true when its upload token was already recorded (nothing new stored). */
export function addSourceFile(db: Db, f: NewSourceFile): { file: SourceFileRecord; duplicate: boolean } {
  return db
    .transaction(() => {
      if (f.upload_token) {
        const existing = findByUploadToken(db, f.transaction_id, f.upload_token);
        if (existing) return { file: existing, duplicate: true };
      }
      // Checked under the write lock: a start that won the race must not see files appear after it.
      const t = db
        .query<{ status: string }, [string]>("SELECT status FROM transactions WHERE transaction_id = ?")
        .get(f.transaction_id);
      if (!t) throw new DocprocError("not_found", `Transaction ${f.transaction_id} not found`);
      if (t.status !== "created")
        throw new DocprocError("conflict", `Cannot upload files to transaction in ${t.status} state`);
      const files = listSourceFiles(db, f.transaction_id);
      const index = f.index ?? (files.length === 0 ? 0 : files[files.length - 1]!.file_index + 1);
      if (files.some((x) => x.file_index === index)) {
        throw new DocprocError("invalid_input", `file index ${index} is already used in this transaction`);
      }
      const filename = uniqueName(new Set(files.map((x) => x.filename)), f.filename);
      db.query(
        `INSERT INTO source_files (transaction_id, file_index, filename, original_name, content_type, size, blob_hash,
           split_policy, upload_token, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        f.transaction_id,
        index,
        filename,
        f.filename,
        f.content_type,
        f.size,
        f.blob_hash,
        f.split_policy,
        f.upload_token ?? null,
        f.now,
      );
      if (f.password) setSourceFilePassword(db, f.transaction_id, index, f.password);
      const file = db
        .query<SourceFileRecord, [string, number]>(
          "SELECT * FROM source_files WHERE transaction_id = ? AND file_index = ?",
        )
        .get(f.transaction_id, index)!;
      return { file, duplicate: false };
    })
    .immediate();
}
