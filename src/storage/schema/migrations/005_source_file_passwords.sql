-- Passwords of encrypted source files (docs/api.md, "Encrypted PDFs"). Kept apart from source_files so no query
-- that lists files can return them by accident. `password` is set to NULL (with secure_delete on) by the statement
-- that gives the transaction its final status: the plain text lives in the database only while the transaction may
-- still need it (queued, processing, retried after a crash, awaiting_input). The row stays, so `has_password` can
-- still be reported.
CREATE TABLE source_file_passwords (
  transaction_id  TEXT NOT NULL,
  file_index      INTEGER NOT NULL,
  password        TEXT,
  PRIMARY KEY (transaction_id, file_index),
  FOREIGN KEY (transaction_id, file_index) REFERENCES source_files(transaction_id, file_index) ON DELETE CASCADE
);
