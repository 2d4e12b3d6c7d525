-- Workflow depth (issue 19): offer conditions as records, deferrals, structured reasons,
-- decision due dates and idempotent reminders. One file for SQLite and PostgreSQL.

-- Each condition of a conditional offer, settled one by one by staff. `due_at` is when the
-- background pass moves an application with a condition still pending to conditions_not_met.
CREATE TABLE offer_conditions (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  position INTEGER NOT NULL, -- 1..n in the order the offer listed them
  description TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'met', 'not_met', 'waived')),
  due_at TIMESTAMPTZ NOT NULL,
  evidence_document_id TEXT REFERENCES documents (id) ON DELETE SET NULL,
  note TEXT,
  verified_by TEXT REFERENCES users (id),
  verified_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  UNIQUE (application_id, position)
);
CREATE INDEX offer_conditions_due ON offer_conditions (status, due_at);

-- When every condition of the offer was met or waived: the offer became unconditional.
ALTER TABLE applications ADD COLUMN conditions_met_at TIMESTAMPTZ;

-- A move of an accepted place to a later intake of the same program.
CREATE TABLE deferrals (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  from_intake_id TEXT NOT NULL REFERENCES intakes (id),
  to_intake_id TEXT NOT NULL REFERENCES intakes (id),
  status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'refused')),
  reason TEXT,
  requested_by TEXT NOT NULL REFERENCES users (id),
  requested_at TIMESTAMPTZ NOT NULL,
  decided_by TEXT REFERENCES users (id),
  decided_at TIMESTAMPTZ,
  decision_note TEXT
);
CREATE INDEX deferrals_application ON deferrals (application_id, requested_at);
-- At most one open request per application.
CREATE UNIQUE INDEX deferrals_one_open ON deferrals (application_id) WHERE status = 'requested';

-- The reasons staff and applicants pick from, per kind; codes are never deleted (the history
-- refers to them), only deactivated.
CREATE TABLE reasons (
  kind TEXT NOT NULL CHECK (kind IN ('rejection', 'withdrawal', 'decline')),
  code TEXT NOT NULL,
  label TEXT NOT NULL,
  active BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (kind, code)
);
INSERT INTO reasons (kind, code, label, active, created_at, updated_at) VALUES
  ('rejection', 'academic_requirements', 'Does not meet the academic requirements', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('rejection', 'competition', 'Stronger applications for the places available', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('rejection', 'incomplete', 'Application incomplete', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('rejection', 'other', 'Other', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('withdrawal', 'accepted_elsewhere', 'Accepted a place elsewhere', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('withdrawal', 'personal', 'Personal circumstances', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('withdrawal', 'financial', 'Financial reasons', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('withdrawal', 'other', 'Other', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('decline', 'accepted_elsewhere', 'Accepted a place elsewhere', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('decline', 'financial', 'Financial reasons', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('decline', 'program_fit', 'The program is not the right fit', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('decline', 'other', 'Other', TRUE, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');

-- The code picked for a move into rejected, withdrawn or declined (the free text stays `reason`).
ALTER TABLE application_transitions ADD COLUMN reason_code TEXT;
CREATE INDEX application_transitions_reason ON application_transitions (to_status, reason_code);

-- When an intake's decisions are due: reviewers are reminded before it.
ALTER TABLE intakes ADD COLUMN decisions_due_at TIMESTAMPTZ;

-- Every reminder or digest sent, keyed so that a second pass or a second replica sends nothing
-- twice: the insert and the email commit together, and the key refuses a repeat.
-- `due_at` is the deadline (or, for a daily digest, the day) the reminder is for: a deadline
-- moved later is reminded of again.
CREATE TABLE reminders_sent (
  kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  due_at TIMESTAMPTZ NOT NULL,
  sent_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (kind, subject_id, due_at)
);
