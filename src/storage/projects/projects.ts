/**
 * Projects. Settings are a JSON document versioned by an integer `project_version`:
 * MUST increment the version on every update, so exports can record which settings produced them.
 */
import { SETTINGS_VERSION } from "../../core/settings-migrations";
import { json, type Db } from "../schema/db";

export interface ProjectRecord {
  project_id: string;
  tenant_id: string;
  name: string;
  description: string;
  settings: unknown;
  project_version: number;
  created_at: string;
  updated_at: string;
}

type Row = Omit<ProjectRecord, "settings"> & { settings: string; settings_version?: number };

// settings_version stays inside storage: the API's project view is the spec's.
const toRecord = ({ settings_version: _, ...r }: Row): ProjectRecord => ({ ...r, settings: json(r.settings, {}) });

export function createProject(
  db: Db,
  p: { project_id: string; tenant_id: string; name: string; description: string; settings: unknown; now: string },
): ProjectRecord {
  db.query(
    `INSERT INTO projects (project_id, tenant_id, name, description, settings, settings_version, project_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  ).run(p.project_id, p.tenant_id, p.name, p.description, JSON.stringify(p.settings), SETTINGS_VERSION, p.now, p.now);
  return getProject(db, p.tenant_id, p.project_id)!;
}

export function getProject(db: Db, tenantId: string, projectId: string): ProjectRecord | null {
  const row = db
    .query<Row, [string, string]>("SELECT * FROM projects WHERE tenant_id = ? AND project_id = ?")
    .get(tenantId, projectId);
  return row ? toRecord(row) : null;
}

export function getProjectById(db: Db, projectId: string): ProjectRecord | null {
  const row = db.query<Row, [string]>("SELECT * FROM projects WHERE project_id = ?").get(projectId);
  return row ? toRecord(row) : null;
}

export function listProjects(db: Db, tenantId: string): ProjectRecord[] {
  return db
    .query<Row, [string]>("SELECT * FROM projects WHERE tenant_id = ? ORDER BY created_at, project_id")
    .all(tenantId)
    .map(toRecord);
}

/** Updates any of name, description, settings; always bumps project_version. Returns null for an unknown project. */
export function updateProject(
  db: Db,
  tenantId: string,
  projectId: string,
  patch: { name?: string; description?: string; settings?: unknown },
  now: string,
): ProjectRecord | null {
  const res = db
    .query(
      `UPDATE projects SET
         name = COALESCE(?, name),
         description = COALESCE(?, description),
         settings = COALESCE(?, settings),
         settings_version = CASE WHEN ? = 1 THEN ? ELSE settings_version END,
         project_version = project_version + 1,
         updated_at = ?
       WHERE tenant_id = ? AND project_id = ?`,
    )
    .run(
      patch.name ?? null,
      patch.description ?? null,
      patch.settings === undefined ? null : JSON.stringify(patch.settings),
      // Settings written now have this build's meaning (core/settings-migrations.ts).
      patch.settings === undefined ? 0 : 1,
      SETTINGS_VERSION,
      now,
      tenantId,
      projectId,
    );
  return res.changes === 0 ? null : getProject(db, tenantId, projectId);
}
