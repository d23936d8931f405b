/**
 * Brings stored project settings to the current meaning (core/settings-migrations.ts) when a database opens: on
 * SQLite in `migrate` (db.ts), on PostgreSQL in `openPostgres`, and so also for `docproc migrate`. Each project is
 * migrated once: the row's `settings_version` is checked in the UPDATE, so two processes opening the same database
 * together cannot both migrate it. A project whose settings changed gets a new project_version (exports record
 * which settings produced them) and one project_history row per change.
 */
import { randomUUID } from "node:crypto";
import { migrateSettings, SETTINGS_VERSION } from "../../core/settings-migrations";

/**
 * The part of `Db` (db.ts) used here, by its shape: db.ts runs these migrations when it opens a database, so this
 * module cannot import it (no import cycle between files, type-only ones included).
 */
interface Db {
  query<R = unknown, P extends unknown[] = Array<string | number | null>>(
    sql: string,
  ): {
    all(...params: P): R[];
    get(...params: P): R | null;
    run(...params: P): { changes: number };
  };
  transaction<T>(fn: () => T): () => T;
}

export interface SettingsMigrationReport {
  project_id: string;
  tenant_id: string;
  from_version: number;
  to_version: number;
  /** What changed (empty: only the version was recorded). */
  notes: string[];
}

/** What the last open of a database migrated, for the process that opened it to log (once: nobody else did it). */
const applied = new WeakMap<object, SettingsMigrationReport[]>();

export function settingsMigrationsOf(db: object): SettingsMigrationReport[] {
  return applied.get(db) ?? [];
}

interface Row {
  project_id: string;
  tenant_id: string;
  settings: string;
  settings_version: number;
}

export function applySettingsMigrations(db: Db, now = new Date().toISOString()): SettingsMigrationReport[] {
  const rows = db
    .query<Row, [number]>(
      "SELECT project_id, tenant_id, settings, settings_version FROM projects WHERE settings_version < ? ORDER BY created_at, project_id",
    )
    .all(SETTINGS_VERSION);
  const reports: SettingsMigrationReport[] = [];
  for (const row of rows) {
    const from = Number(row.settings_version);
    const out = migrateSettings(JSON.parse(row.settings || "{}"), from);
    const changed = out.notes.length > 0;
    const done = db.transaction(() => {
      const res = changed
        ? db
            .query(
              "UPDATE projects SET settings = ?, settings_version = ?, project_version = project_version + 1, updated_at = ? WHERE project_id = ? AND settings_version = ?",
            )
            .run(JSON.stringify(out.settings), out.version, now, row.project_id, from)
        : db
            .query("UPDATE projects SET settings_version = ? WHERE project_id = ? AND settings_version = ?")
            .run(out.version, row.project_id, from);
      if (res.changes === 0) return false; // another process did it
      if (changed) {
        const version = db
          .query<{ v: number }, [string]>("SELECT project_version AS v FROM projects WHERE project_id = ?")
          .get(row.project_id)!.v;
        for (const [i, note] of out.notes.entries()) {
          // The position first: a migration's notes sort in their order (they share created_at).
          db.query(
            "INSERT INTO project_history (history_id, project_id, tenant_id, kind, note, project_version, created_at) VALUES (?, ?, ?, 'settings_migration', ?, ?, ?)",
          ).run(
            `${String(i).padStart(4, "0")}-${randomUUID()}`,
            row.project_id,
            row.tenant_id,
            note,
            Number(version),
            now,
          );
        }
      }
      return true;
    })();
    if (done)
      reports.push({
        project_id: row.project_id,
        tenant_id: row.tenant_id,
        from_version: from,
        to_version: out.version,
        notes: out.notes,
      });
  }
  applied.set(db, [...settingsMigrationsOf(db), ...reports]);
  return reports;
}

export interface ProjectHistoryEntry {
  history_id: string;
  kind: string;
  note: string;
  project_version: number;
  created_at: string;
}

export function listProjectHistory(db: Db, projectId: string): ProjectHistoryEntry[] {
  return db
    .query<ProjectHistoryEntry, [string]>(
      "SELECT history_id, kind, note, project_version, created_at FROM project_history WHERE project_id = ? ORDER BY created_at, history_id",
    )
    .all(projectId)
    .map((r) => ({ ...r, project_version: Number(r.project_version) }));
}

/** The log line of one project's migration (serve, worker and `docproc migrate` print it once, when it happens). */
export function describeSettingsMigration(r: SettingsMigrationReport): string {
  const what = r.notes.length ? r.notes.join("; ") : "no change of behaviour";
  return `project ${r.project_id} (tenant ${r.tenant_id}): settings migrated from version ${r.from_version} to ${r.to_version}: ${what}`;
}
