/** Evaluation datasets of a project (docs/datasets.md). Names are unique per project. */
import type { Db } from "../schema/db";

export interface DatasetRecord {
  dataset_id: string;
  tenant_id: string;
  project_id: string;
  name: string;
  description: string;
  created_at: string;
}

/** Creates a dataset; null when the project already has one of that name. */
export function createDataset(db: Db, d: DatasetRecord): DatasetRecord | null {
  const res = db
    .query(
      "INSERT INTO datasets (dataset_id, tenant_id, project_id, name, description, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    )
    .run(d.dataset_id, d.tenant_id, d.project_id, d.name, d.description, d.created_at);
  return res.changes ? d : null;
}

export function listDatasets(db: Db, projectId: string): DatasetRecord[] {
  return db
    .query<DatasetRecord, [string]>("SELECT * FROM datasets WHERE project_id = ? ORDER BY created_at, name")
    .all(projectId);
}

export function getDataset(db: Db, projectId: string, datasetId: string): DatasetRecord | null {
  return db
    .query<DatasetRecord, [string, string]>("SELECT * FROM datasets WHERE project_id = ? AND dataset_id = ?")
    .get(projectId, datasetId);
}

/** Transactions of a dataset by status (the dataset view). */
export function countByStatus(db: Db, projectId: string, datasetId: string): Record<string, number> {
  const rows = db
    .query<{ status: string; n: number }, [string, string]>(
      "SELECT status, COUNT(*) AS n FROM transactions WHERE project_id = ? AND dataset_id = ? GROUP BY status",
    )
    .all(projectId, datasetId);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The dataset's completed transactions, oldest first, with their metadata (JSON text: the expected values). */
export function completedTransactions(
  db: Db,
  projectId: string,
  datasetId: string,
): Array<{ transaction_id: string; metadata: string }> {
  return db
    .query<{ transaction_id: string; metadata: string }, [string, string]>(
      "SELECT transaction_id, metadata FROM transactions WHERE project_id = ? AND dataset_id = ? AND status = 'completed' ORDER BY created_at, transaction_id",
    )
    .all(projectId, datasetId);
}
