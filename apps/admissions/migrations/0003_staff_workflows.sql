-- Staff workflows: reviewer pools, assignments, rubrics and reviews, offers and the waitlist,
-- the audit log and the email outbox. One file for SQLite and PostgreSQL.

-- Offers and the waitlist live on the application: an offer's response deadline and its
-- conditions (JSON array; conditional offers only), a waitlisted application's position.
ALTER TABLE applications ADD COLUMN offer_respond_by TIMESTAMPTZ;
ALTER TABLE applications ADD COLUMN offer_conditions TEXT;
ALTER TABLE applications ADD COLUMN waitlist_position INTEGER;
-- The expiry job reads the offers due, soonest first.
CREATE INDEX applications_offer_due ON applications (status, offer_respond_by);
CREATE INDEX applications_waitlist ON applications (intake_id, status, waitlist_position);
CREATE INDEX applications_intake_submitted ON applications (intake_id, submitted_at, id);

-- Staff who review a program's applications; round-robin picks the one assigned longest ago.
CREATE TABLE program_reviewers (
  program_id TEXT NOT NULL REFERENCES programs (id),
  reviewer_id TEXT NOT NULL REFERENCES users (id),
  last_assigned_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (program_id, reviewer_id)
);

CREATE TABLE review_assignments (
  application_id TEXT NOT NULL REFERENCES applications (id),
  reviewer_id TEXT NOT NULL REFERENCES users (id),
  assigned_by TEXT NOT NULL REFERENCES users (id),
  assigned_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (application_id, reviewer_id)
);
CREATE INDEX review_assignments_reviewer ON review_assignments (reviewer_id, assigned_at);

-- A reviewer who declared a conflict of interest is off the application for good.
CREATE TABLE review_conflicts (
  application_id TEXT NOT NULL REFERENCES applications (id),
  reviewer_id TEXT NOT NULL REFERENCES users (id),
  reason TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (application_id, reviewer_id)
);

-- One rubric per program: weighted criteria (JSON array of {key, label, weight}) on one scale.
CREATE TABLE rubrics (
  program_id TEXT PRIMARY KEY REFERENCES programs (id),
  min_score INTEGER NOT NULL,
  max_score INTEGER NOT NULL,
  criteria TEXT NOT NULL,
  updated_by TEXT NOT NULL REFERENCES users (id),
  updated_at TIMESTAMPTZ NOT NULL,
  CHECK (min_score < max_score)
);

CREATE TABLE reviews (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id),
  reviewer_id TEXT NOT NULL REFERENCES users (id),
  scores TEXT NOT NULL, -- JSON object: criterion key → score
  recommendation TEXT NOT NULL
    CHECK (recommendation IN ('offer', 'waitlist', 'reject', 'discuss')),
  comment TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  UNIQUE (application_id, reviewer_id)
);

-- Every staff (and system) action. Rows are only ever inserted: 0004 adds triggers that refuse
-- UPDATE and DELETE, and the API has no route that changes them.
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  actor_id TEXT REFERENCES users (id), -- NULL for the system (offer expiry)
  actor_role TEXT NOT NULL,
  action TEXT NOT NULL,
  application_id TEXT REFERENCES applications (id),
  subject_type TEXT,
  subject_id TEXT,
  details TEXT NOT NULL DEFAULT '{}',
  client_ip TEXT,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_log_created ON audit_log (created_at, id);
CREATE INDEX audit_log_application ON audit_log (application_id, created_at, id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, created_at, id);
CREATE INDEX audit_log_action ON audit_log (action, created_at, id);

-- Transactional outbox: an email is written in the transaction of the change it tells about,
-- and delivered afterwards by the outbox worker (retried with backoff until sent or dead).
CREATE TABLE email_outbox (
  id TEXT PRIMARY KEY,
  application_id TEXT REFERENCES applications (id),
  event TEXT NOT NULL,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  last_error TEXT,
  transport TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  sent_at TIMESTAMPTZ
);
CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at);
CREATE INDEX email_outbox_application ON email_outbox (application_id, created_at, id);
