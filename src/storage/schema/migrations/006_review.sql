-- Human review (docs/review.md). One review state per transaction: the full results file (pages with their words),
-- the review history and whether the review is finished. `version` rises with every write: a write that names an
-- older version is refused (409), so two reviewers never overwrite each other.
CREATE TABLE review_states (
  transaction_id  TEXT PRIMARY KEY REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  version         INTEGER NOT NULL,
  state           TEXT NOT NULL,    -- JSON: { results, history, finished_at }
  updated_at      TEXT NOT NULL
);

-- Page images rendered for review, kept in the blob store after the first request.
CREATE TABLE page_images (
  transaction_id  TEXT NOT NULL REFERENCES transactions(transaction_id) ON DELETE CASCADE,
  page_number     INTEGER NOT NULL,
  blob_hash       TEXT NOT NULL,
  content_type    TEXT NOT NULL,
  PRIMARY KEY (transaction_id, page_number)
);
