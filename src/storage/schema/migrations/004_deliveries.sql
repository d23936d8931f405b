-- Webhook delivery log (docs/webhooks.md). One row per delivery (one payload to one Notification node), one row
-- per attempt. `request` holds the JSON DeliveryRequest the queue sends (it contains hmac_secret, so the API never
-- returns it). Times are ISO 8601 UTC.
--
-- state: pending (queued, no attempt yet) → retrying (an attempt failed, the next is scheduled) → succeeded | failed.
CREATE TABLE webhook_deliveries (
--pg   rowid                   BIGINT GENERATED ALWAYS AS IDENTITY,   -- insertion order, as SQLite's rowid
  delivery_id             TEXT PRIMARY KEY,        -- the webhook-id header, msg_<uuid>
  transaction_id          TEXT NOT NULL,
  tenant_id               TEXT NOT NULL,
  node_id                 TEXT,                    -- workflow step id of the Notification node
  activity_index          INTEGER NOT NULL,
  event                   TEXT NOT NULL,           -- reached | failed
  event_name              TEXT NOT NULL,           -- the payload's `event`
  url                     TEXT NOT NULL,           -- redacted (no userinfo, no query values)
  request                 TEXT NOT NULL,
  retry_max_attempts      INTEGER NOT NULL,
  retry_backoff_seconds   REAL NOT NULL,
  fail_workflow_on_error  INTEGER NOT NULL DEFAULT 0,
  state                   TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','retrying','succeeded','failed')),
  attempts                INTEGER NOT NULL DEFAULT 0,
  next_attempt_at         TEXT,
  last_error              TEXT,
  redelivery_of           TEXT,                    -- the delivery this one sends again
  created_at              TEXT NOT NULL,
  updated_at              TEXT NOT NULL,
  completed_at            TEXT
);
CREATE INDEX webhook_deliveries_tx ON webhook_deliveries(transaction_id, created_at);

CREATE TABLE webhook_delivery_attempts (
  delivery_id          TEXT NOT NULL REFERENCES webhook_deliveries(delivery_id) ON DELETE CASCADE,
  attempt              INTEGER NOT NULL,           -- 1-based
  started_at           TEXT NOT NULL,
  duration_ms          INTEGER NOT NULL,
  status               INTEGER,                    -- HTTP status, NULL when no response
  kind                 TEXT NOT NULL,              -- success | http_status | redirect | timeout | network | dns | ssrf_blocked
  error                TEXT,
  retry_after_seconds  REAL,
  address              TEXT,                       -- the IP actually connected to
  response_excerpt     TEXT,                       -- first 2 KiB of the response body
  PRIMARY KEY (delivery_id, attempt)
);
