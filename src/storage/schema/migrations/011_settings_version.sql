-- Stored project settings carry the version of their meaning (core/settings-migrations.ts). Rows written before
-- this migration are version 0; storage/settings-migrate.ts brings them up at open, each once, and writes what it
-- changed to project_history (so an operator can see why a project's settings differ from what was stored).
ALTER TABLE projects ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE project_history (
  history_id       TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
  tenant_id        TEXT NOT NULL,
  kind             TEXT NOT NULL,             -- settings_migration
  note             TEXT NOT NULL,
  project_version  INTEGER NOT NULL,          -- the version the change produced
  created_at       TEXT NOT NULL
);
CREATE INDEX project_history_project ON project_history(project_id, created_at);
