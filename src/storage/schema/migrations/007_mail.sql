-- E-mail import connectors (docs/email.md). `settings` is JSON without secrets; the IMAP password is only ever
-- stored sealed with DOCPROC_SECRET_KEY (storage/secret-box.ts) and never returned by a view.
CREATE TABLE mail_connectors (
  connector_id     TEXT PRIMARY KEY,
  tenant_id        TEXT NOT NULL REFERENCES tenants(tenant_id),
  project_id       TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
  name             TEXT NOT NULL,
  enabled          INTEGER NOT NULL DEFAULT 1,
  settings         TEXT NOT NULL,
  password_sealed  TEXT NOT NULL,
  last_poll_at     TEXT,
  last_error       TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX mail_connectors_project ON mail_connectors(tenant_id, project_id, created_at);

-- The import ledger: one row per message a connector has touched, keyed by the mailbox's UIDVALIDITY and the
-- message's UID. A row reaches `imported` in the same SQLite transaction that creates and queues the transaction,
-- so a crash can never leave a transaction without its row or a row without its transaction; the mailbox action
-- (seen/move/delete) runs only after that commit and moves the row to `done`. `message_key` (the Message-ID, or a
-- hash of the message when it has none) catches the same message under a new UID (UIDVALIDITY reset, re-delivery).
CREATE TABLE mail_messages (
  connector_id    TEXT NOT NULL REFERENCES mail_connectors(connector_id) ON DELETE CASCADE,
  uid_validity    INTEGER NOT NULL,
  uid             INTEGER NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('claimed','imported','done','failed')),
  message_key     TEXT,
  message_id      TEXT,
  subject         TEXT,
  from_address    TEXT,
  transaction_id  TEXT,
  duplicate       INTEGER NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,
  error           TEXT,
  claim_token     TEXT,
  claim_until     INTEGER,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  PRIMARY KEY (connector_id, uid_validity, uid)
);
CREATE INDEX mail_messages_key ON mail_messages(connector_id, message_key);
CREATE INDEX mail_messages_state ON mail_messages(connector_id, state);
