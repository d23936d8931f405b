-- Authentication: clients (integrations) with API keys, users with sessions, persisted rate-limit counters.
-- Secrets are never stored: API keys and session tokens are kept as SHA-256 hex digests (high-entropy values,
-- so a fast hash is right); user passwords as argon2id PHC strings.

CREATE TABLE clients (
  client_id              TEXT PRIMARY KEY,
  tenant_id              TEXT NOT NULL REFERENCES tenants(tenant_id),
  name                   TEXT NOT NULL,
  permissions            TEXT NOT NULL DEFAULT '[]',  -- JSON array of permission names
  rate_limit_per_minute  INTEGER,                     -- NULL: the server default
  rate_limit_per_hour    INTEGER,
  async_limit_per_hour   INTEGER,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX clients_tenant ON clients(tenant_id, client_id);

CREATE TABLE api_keys (
  key_id       TEXT PRIMARY KEY,
  client_id    TEXT NOT NULL REFERENCES clients(client_id) ON DELETE CASCADE,
  key_hash     TEXT NOT NULL UNIQUE,   -- sha256 hex of the whole key
  key_suffix   TEXT NOT NULL,          -- last characters, to recognise a key in lists
  description  TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);
CREATE INDEX api_keys_client ON api_keys(client_id, created_at);

CREATE TABLE users (
  user_id        TEXT PRIMARY KEY,
  tenant_id      TEXT NOT NULL REFERENCES tenants(tenant_id),
  username       TEXT NOT NULL,
  password_hash  TEXT NOT NULL,           -- argon2id (Bun.password)
  permissions    TEXT NOT NULL DEFAULT '[]',
  created_at     TEXT NOT NULL,
  disabled_at    TEXT,
  UNIQUE (tenant_id, username)
);

CREATE TABLE sessions (
  token_hash    TEXT PRIMARY KEY,         -- sha256 hex of the session token
  session_id    TEXT NOT NULL UNIQUE,
  user_id       TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  tenant_id     TEXT NOT NULL,
  created_at    INTEGER NOT NULL,         -- epoch ms
  expires_at    INTEGER NOT NULL,         -- absolute end, epoch ms
  last_seen_at  INTEGER NOT NULL,         -- for the idle timeout, epoch ms (written at most once per touch interval)
  ended_at      INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

-- One row per (subject, window). A window opens at the subject's first request and lasts length_ms.
CREATE TABLE rate_limit_counters (
  subject       TEXT NOT NULL,            -- key:<key_id> | tenant:<tenant_id> | login:<tenant>/<username>
  window        TEXT NOT NULL,            -- minute | hour | async_hour | ...
  window_start  INTEGER NOT NULL,         -- epoch ms
  length_ms     INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (subject, window)
);
