-- Settings of the whole deployment that one process knows and the others need. `public_url`: the base a `serve`
-- builds webhook download links from (DOCPROC_PUBLIC_URL, else its listen address, `configured` = 0), so a
-- `docproc worker` without DOCPROC_PUBLIC_URL builds the same links (storage/deployment.ts).
CREATE TABLE deployment_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  configured INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
