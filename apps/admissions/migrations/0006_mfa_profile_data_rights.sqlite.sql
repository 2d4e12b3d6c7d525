-- Staff MFA (TOTP and recovery codes), the applicant's profile and its history, data-rights
-- requests (export, erasure), the profile copied into each application, and audit entries an
-- erasure may redact (issue 15). SQLite and PostgreSQL differ only in the audit trigger at the
-- end, so this file exists once per dialect.

-- One TOTP secret per account. `secret` is AES-256-GCM ciphertext bound to the user id (see
-- modules/mfa/internal/secret.ts), never the secret itself. NULL `enabled_at`: an enrolment
-- waiting for its first code. `last_used_step` is the 30-second step of the last accepted code:
-- a code is accepted only for a later step, so no code works twice.
CREATE TABLE mfa_totp (
  user_id TEXT PRIMARY KEY REFERENCES users (id),
  secret TEXT NOT NULL,
  enabled_at TIMESTAMPTZ,
  last_used_step INTEGER,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

-- Single-use recovery codes, stored as SHA-256 digests (each code carries 60 random bits).
CREATE TABLE mfa_recovery_codes (
  user_id TEXT NOT NULL REFERENCES users (id),
  code_hash TEXT NOT NULL,
  used_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (user_id, code_hash)
);

-- The applicant's personal details; every change appends a history row.
CREATE TABLE profiles (
  user_id TEXT PRIMARY KEY REFERENCES users (id),
  legal_name TEXT,
  preferred_name TEXT,
  date_of_birth TEXT, -- YYYY-MM-DD
  nationality TEXT, -- ISO 3166-1 alpha-2
  address TEXT, -- JSON: {lines, city, region, postcode, country}
  phone TEXT, -- E.164
  version INTEGER NOT NULL DEFAULT 1,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE profile_history (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  changed_by TEXT NOT NULL REFERENCES users (id),
  changes TEXT NOT NULL, -- JSON: {field: {from, to}} for each field that changed
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX profile_history_user ON profile_history (user_id, created_at, id);

-- The applicant's profile as the application was created (refreshed at submission): JSON.
ALTER TABLE applications ADD COLUMN applicant_snapshot TEXT;

-- Data-rights requests: exports (recorded as done) and erasures (done at once, or waiting for
-- an admin while an application is in progress). `retain_until`: an erasure's payment records
-- are kept until then, and deleted by the background pass after it (`purged_at`).
CREATE TABLE data_requests (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('export', 'erasure')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'rejected', 'cancelled')),
  reason TEXT,
  decision_note TEXT,
  decided_by TEXT REFERENCES users (id),
  created_at TIMESTAMPTZ NOT NULL,
  decided_at TIMESTAMPTZ,
  completed_at TIMESTAMPTZ,
  retain_until TIMESTAMPTZ,
  purged_at TIMESTAMPTZ
);
CREATE INDEX data_requests_user ON data_requests (user_id, created_at, id);
CREATE INDEX data_requests_status ON data_requests (status, created_at, id);
CREATE INDEX data_requests_retention ON data_requests (kind, status, retain_until);
-- At most one open erasure request per account.
CREATE UNIQUE INDEX data_requests_one_open_erasure ON data_requests (user_id)
  WHERE kind = 'erasure' AND status = 'pending';

-- An erasure strips personal data from the audit entries about the person (details, client
-- address) and stamps `redacted_at`. That one change, once, is all the triggers below allow:
-- every other UPDATE, and every DELETE, is still refused.
ALTER TABLE audit_log ADD COLUMN redacted_at TIMESTAMPTZ;
DROP TRIGGER audit_log_no_update;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
WHEN NOT (
  OLD.redacted_at IS NULL AND NEW.redacted_at IS NOT NULL
  AND NEW.id = OLD.id AND NEW.actor_id IS OLD.actor_id AND NEW.actor_role = OLD.actor_role
  AND NEW.action = OLD.action AND NEW.application_id IS OLD.application_id
  AND NEW.subject_type IS OLD.subject_type AND NEW.subject_id IS OLD.subject_id
  AND NEW.created_at = OLD.created_at
)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
