-- Evaluation datasets (docs/datasets.md): created over the API with a name; transactions name one by its UUID in
-- dataset_id. production, playground and memory are built in and have no row.
CREATE TABLE datasets (
  dataset_id   TEXT PRIMARY KEY,
  tenant_id    TEXT NOT NULL,
  project_id   TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  description  TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL,
  UNIQUE (project_id, name)
);
