-- References (issue 19): the referees an applicant names, each asked by email for a reference
-- through a single-use link (no account). One file for SQLite and PostgreSQL.
--
-- `token_hash` is the SHA-256 of the live link's token (the token itself is only ever in the
-- email); it is NULL once the reference is received, so the link is dead. A reminder replaces
-- it (only the newest link works). Content (`body_text` or the PDF's storage key) is staff-only.
CREATE TABLE reference_requests (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  referee_name TEXT NOT NULL,
  referee_email TEXT NOT NULL,
  relationship TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('requested', 'reminded', 'received')),
  token_hash TEXT UNIQUE,
  token_expires_at TIMESTAMPTZ,
  reminders_sent INTEGER NOT NULL DEFAULT 0,
  last_sent_at TIMESTAMPTZ NOT NULL,
  body_text TEXT,
  file_name TEXT,
  media_type TEXT,
  size_bytes INTEGER,
  sha256 TEXT,
  storage_key TEXT,
  received_at TIMESTAMPTZ,
  created_by TEXT NOT NULL REFERENCES users (id),
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  UNIQUE (application_id, referee_email)
);
CREATE INDEX reference_requests_due ON reference_requests (status, last_sent_at);
