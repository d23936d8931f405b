-- docproc schema v1. Timestamps the API shows are ISO 8601 UTC strings; queue times are epoch milliseconds
-- (compared arithmetically by the claim query).

CREATE TABLE tenants (
  tenant_id   TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
INSERT INTO tenants (tenant_id, name, created_at) VALUES ('default', 'Default tenant', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE TABLE projects (
  project_id       TEXT PRIMARY KEY,
  tenant_id        TEXT NOT NULL REFERENCES tenants(tenant_id),
  name             TEXT NOT NULL,
  description      TEXT NOT NULL DEFAULT '',
  settings         TEXT NOT NULL,             -- JSON, validated by core/project.ts
  project_version  INTEGER NOT NULL DEFAULT 1,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX projects_tenant ON projects(tenant_id, created_at);

CREATE TABLE transactions (
  transaction_id           TEXT PRIMARY KEY,
  tenant_id                TEXT NOT NULL REFERENCES tenants(tenant_id),
  project_id               TEXT NOT NULL REFERENCES projects(project_id),
  status                   TEXT NOT NULL CHECK (status IN ('created','queued','processing','awaiting_input','completed','failed')),
  correlation_id           TEXT,
  metadata                 TEXT NOT NULL DEFAULT '{}',   -- JSON; the service adds progress and step_progress
  created_at               TEXT NOT NULL,
  started_at               TEXT,
  completed_at             TEXT,
  processing_time_seconds  REAL,
  error_message            TEXT,
  review_metadata          TEXT,                          -- JSON, set while awaiting_input
  dataset_id               TEXT NOT NULL DEFAULT 'production',
  page_limit               INTEGER,
  priority                 INTEGER NOT NULL DEFAULT 0,
  current_step             TEXT,                          -- denormalised metadata.step_progress.current_step for filters
  project_version          INTEGER,
  source                   TEXT NOT NULL DEFAULT 'api',
  request                  TEXT,                          -- JSON of the original request (include_request)
  document_text            TEXT,
  ocr_data                 TEXT,
  updated_at               TEXT NOT NULL
);
CREATE INDEX transactions_list ON transactions(dataset_id, created_at);
CREATE INDEX transactions_status ON transactions(status);
CREATE INDEX transactions_correlation ON transactions(correlation_id);

CREATE TABLE source_files (
  transaction_id  TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  file_index      INTEGER NOT NULL,
  filename        TEXT NOT NULL,       -- after same-name renaming
  original_name   TEXT NOT NULL,
  content_type    TEXT NOT NULL,
  size            INTEGER NOT NULL,
  blob_hash       TEXT NOT NULL,
  split_policy    TEXT NOT NULL DEFAULT 'inherit' CHECK (split_policy IN ('inherit','single_document','self_contained')),
  upload_token    TEXT,
  uploaded_at     TEXT NOT NULL,
  PRIMARY KEY (transaction_id, file_index),
  UNIQUE (transaction_id, filename),
  UNIQUE (transaction_id, upload_token)
);

CREATE TABLE pages (
  transaction_id          TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  page_number             INTEGER NOT NULL,
  source_file_index       INTEGER NOT NULL,
  source_filename         TEXT NOT NULL,
  source_file_page_number INTEGER NOT NULL,
  text_source             TEXT NOT NULL,
  ocr_confidence          REAL,
  image_transform         TEXT NOT NULL,   -- JSON
  text                    TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (transaction_id, page_number)
);

CREATE TABLE documents (
  document_id                TEXT PRIMARY KEY,
  transaction_id             TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  document_index             INTEGER NOT NULL,
  document_type              TEXT NOT NULL,
  classification_confidence  REAL NOT NULL,
  classification             TEXT NOT NULL,   -- JSON
  split                      TEXT NOT NULL,   -- JSON
  validation                 TEXT,            -- JSON, only when the document has warnings or errors
  UNIQUE (transaction_id, document_index)
);

CREATE TABLE fields (
--pg   rowid            BIGINT GENERATED ALWAYS AS IDENTITY,   -- insertion order, as SQLite's rowid (queries ORDER BY rowid)
  document_id      TEXT NOT NULL REFERENCES documents(document_id) ON DELETE CASCADE,
  field_id         TEXT NOT NULL,
  name             TEXT NOT NULL,
  value            TEXT,              -- JSON
  confidence       REAL NOT NULL,
  bounding_boxes   TEXT NOT NULL,     -- JSON
  reasoning        TEXT NOT NULL DEFAULT '',
  review_required  INTEGER NOT NULL DEFAULT 0,
  is_confirmed     INTEGER,
  raw_text         TEXT,
  PRIMARY KEY (document_id, field_id)
);

-- Index fields: searchable, sortable (idx_<name>) values of a transaction, taken from its documents' fields.
CREATE TABLE transaction_index (
  transaction_id  TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  value           TEXT,
  PRIMARY KEY (transaction_id, name)
);

CREATE TABLE export_files (
  transaction_id  TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  profile_id      TEXT NOT NULL,
  filename        TEXT NOT NULL,
  path            TEXT NOT NULL,
  size_bytes      INTEGER NOT NULL,
  document_ids    TEXT NOT NULL DEFAULT '[]',
  created_at      TEXT NOT NULL,
  PRIMARY KEY (transaction_id, filename)
);

CREATE TABLE export_manifests (
  transaction_id  TEXT PRIMARY KEY REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  manifest        TEXT NOT NULL
);

CREATE TABLE jobs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT NOT NULL,
  payload       TEXT NOT NULL DEFAULT '{}',
  job_key       TEXT UNIQUE,        -- at most one live job per key (e.g. process:<transaction_id>)
  priority      INTEGER NOT NULL DEFAULT 0,
  run_at        INTEGER NOT NULL,
  status        TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
  attempts      INTEGER NOT NULL DEFAULT 0,
  max_attempts  INTEGER NOT NULL DEFAULT 3,
  last_error    TEXT,
  lease_token   TEXT,
  lease_until   INTEGER,
  locked_by     TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX jobs_ready ON jobs(status, priority DESC, run_at, id);
