-- Phone capture tokens (docs/capture.md). The token value is never stored: only its SHA-256 hex digest (a 256-bit
-- random value, so a fast hash is right). Times are epoch milliseconds.
--
-- Lifecycle: issued → active (first scan) → consumed (submit), or issued/active → expired.
-- `deadline_at` is the moment the current state times out: issued_at + ttl while issued (the `expires_at`
-- reported at minting), scanned_at + ttl once active. Every move is a guarded UPDATE (`WHERE state = ...`).
CREATE TABLE capture_tokens (
  token_hash      TEXT PRIMARY KEY,
  transaction_id  TEXT NOT NULL UNIQUE,     -- pre-allocated; the transaction row exists only after submit
  tenant_id       TEXT NOT NULL,
  project_id      TEXT NOT NULL,
  dataset_id      TEXT NOT NULL DEFAULT 'production',
  reviewer_id     TEXT,
  page_limit      INTEGER,
  max_pages       INTEGER NOT NULL,
  ttl_seconds     INTEGER NOT NULL,
  label           TEXT,
  minted_by       TEXT NOT NULL,            -- api_key | admin
  key_id          TEXT,                     -- the minting API key (api_key)
  client_id       TEXT,
  admin_key_hash  TEXT,                     -- sha256 of the admin key that minted it (admin)
  state           TEXT NOT NULL DEFAULT 'issued',
  issued_at       INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,         -- issued_at + ttl: the last moment for the first scan
  deadline_at     INTEGER NOT NULL,
  scanned_at      INTEGER,
  consumed_at     INTEGER,
  expired_at      INTEGER
);
CREATE INDEX capture_tokens_project ON capture_tokens(tenant_id, project_id, issued_at);
