/**
 * Export files and the manifest of a transaction. The manifest is stored whole (profile errors and statuses
 * included); export_files indexes its files so downloads can be checked against it.
 */
import type { ExportManifest, ManifestFile } from "../../core/exporters/run";
import { json, type Db } from "../schema/db";

/** The manifest as stored: the exporters' manifest (src/core/exporters/run.ts), whole. */
export type StoredManifest = ExportManifest;

export function emptyManifest(transactionId: string): StoredManifest {
  return { transaction_id: transactionId, profiles: {}, total_files: 0, total_size_bytes: 0 };
}

/** Replaces the manifest and its file index. MUST run inside the caller's transaction. */
export function replaceManifest(db: Db, transactionId: string, manifest: StoredManifest): void {
  db.query("DELETE FROM export_files WHERE transaction_id = ?").run(transactionId);
  db.query(
    "INSERT INTO export_manifests (transaction_id, manifest) VALUES (?, ?) ON CONFLICT (transaction_id) DO UPDATE SET manifest = excluded.manifest",
  ).run(transactionId, JSON.stringify(manifest));
  const stmt = db.query(
    `INSERT INTO export_files (transaction_id, profile_id, filename, path, size_bytes, document_ids, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (transaction_id, filename) DO UPDATE SET profile_id = excluded.profile_id, path = excluded.path,
       size_bytes = excluded.size_bytes, document_ids = excluded.document_ids, created_at = excluded.created_at`,
  );
  for (const [profileId, p] of Object.entries(manifest.profiles)) {
    for (const f of p.files ?? []) {
      stmt.run(
        transactionId,
        profileId,
        f.filename,
        f.path,
        f.size_bytes,
        JSON.stringify(f.document_ids ?? []),
        f.created_at,
      );
    }
  }
}

export function getManifest(db: Db, transactionId: string): StoredManifest | null {
  const row = db
    .query<{ manifest: string }, [string]>("SELECT manifest FROM export_manifests WHERE transaction_id = ?")
    .get(transactionId);
  return row ? json(row.manifest, null) : null;
}

export function findExportFile(
  db: Db,
  transactionId: string,
  filename: string,
): (ManifestFile & { profile_id: string }) | null {
  const row = db
    .query<
      {
        profile_id: string;
        filename: string;
        path: string;
        size_bytes: number;
        document_ids: string;
        created_at: string;
      },
      [string, string]
    >("SELECT * FROM export_files WHERE transaction_id = ? AND filename = ?")
    .get(transactionId, filename);
  return row ? { ...row, document_ids: json(row.document_ids, []) } : null;
}
