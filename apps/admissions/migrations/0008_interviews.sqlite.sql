-- Interviews (issue 19): slots with a panel, invitations with an iCalendar attachment, panel
-- scores, and the `interviewing` status. SQLite cannot change a CHECK constraint, so the
-- applications table is rebuilt (0008_interviews.postgres.sql alters it in place; the rest of
-- the two files is the same).
--
-- The rebuild runs inside the migrations' transaction, where foreign keys stay on: with the
-- checks deferred to the commit, DROP TABLE leaves the children's references dangling until the
-- rows come back under the same name, but its implicit DELETE still fires ON DELETE CASCADE, so
-- the cascading children (offer conditions, deferrals) are kept aside and put back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE keep_applications AS SELECT * FROM applications;
CREATE TEMP TABLE keep_offer_conditions AS SELECT * FROM offer_conditions;
CREATE TEMP TABLE keep_deferrals AS SELECT * FROM deferrals;
DROP TABLE applications;
CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  applicant_id TEXT NOT NULL REFERENCES users (id),
  program_id TEXT NOT NULL REFERENCES programs (id),
  intake_id TEXT NOT NULL REFERENCES intakes (id),
  status TEXT NOT NULL CHECK (status IN (
    'draft', 'submitted', 'under_review', 'interviewing', 'offered', 'conditionally_offered',
    'waitlisted', 'rejected', 'accepted', 'declined', 'offer_expired', 'enrolled',
    'conditions_not_met', 'withdrawn'
  )),
  version INTEGER NOT NULL DEFAULT 1, -- optimistic locking: bumped by every change
  personal_statement TEXT NOT NULL DEFAULT '',
  prior_qualification TEXT NOT NULL DEFAULT '',
  prior_institution TEXT NOT NULL DEFAULT '',
  graduation_year INTEGER,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  submitted_at TIMESTAMPTZ,
  offer_respond_by TIMESTAMPTZ,
  offer_conditions TEXT,
  waitlist_position INTEGER,
  applicant_snapshot TEXT,
  conditions_met_at TIMESTAMPTZ,
  UNIQUE (applicant_id, intake_id) -- one application per program and intake
);
INSERT INTO applications SELECT * FROM keep_applications;
INSERT INTO offer_conditions SELECT * FROM keep_offer_conditions
  WHERE id NOT IN (SELECT id FROM offer_conditions);
INSERT INTO deferrals SELECT * FROM keep_deferrals WHERE id NOT IN (SELECT id FROM deferrals);
DROP TABLE keep_applications;
DROP TABLE keep_offer_conditions;
DROP TABLE keep_deferrals;
CREATE INDEX applications_created ON applications (created_at, id);
CREATE INDEX applications_status_created ON applications (status, created_at, id);
CREATE INDEX applications_program_created ON applications (program_id, created_at, id);
CREATE INDEX applications_program_status_created
  ON applications (program_id, status, created_at, id);
CREATE INDEX applications_intake_created ON applications (intake_id, created_at, id);
CREATE INDEX applications_intake_status_created ON applications (intake_id, status, created_at, id);
CREATE INDEX applications_applicant_created ON applications (applicant_id, created_at, id);
CREATE INDEX applications_offer_due ON applications (status, offer_respond_by);
CREATE INDEX applications_waitlist ON applications (intake_id, status, waitlist_position);
CREATE INDEX applications_intake_submitted ON applications (intake_id, submitted_at, id);

-- An interview slot: a time, a place or a video link, and a panel of staff. `application_id` is
-- set once an applicant is invited. `sequence` is the iCalendar SEQUENCE of the invitation:
-- every reschedule or cancellation sends a newer version of the same event (UID = the id).
CREATE TABLE interviews (
  id TEXT PRIMARY KEY,
  application_id TEXT REFERENCES applications (id),
  status TEXT NOT NULL
    CHECK (status IN ('open', 'invited', 'confirmed', 'reschedule_requested', 'cancelled')),
  starts_at TIMESTAMPTZ NOT NULL,
  ends_at TIMESTAMPTZ NOT NULL,
  location TEXT,
  meeting_url TEXT,
  sequence INTEGER NOT NULL DEFAULT 0,
  applicant_note TEXT, -- why the applicant asked to reschedule or cancelled
  cancel_reason TEXT,
  created_by TEXT NOT NULL REFERENCES users (id),
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  CHECK (starts_at < ends_at),
  -- A place or a link, never both, never neither.
  CHECK ((location IS NULL) <> (meeting_url IS NULL))
);
CREATE INDEX interviews_application ON interviews (application_id, starts_at);
CREATE INDEX interviews_starts ON interviews (starts_at, id);
-- At most one live interview per application (the service says so first, with a clear 409).
CREATE UNIQUE INDEX interviews_one_live ON interviews (application_id)
  WHERE status IN ('invited', 'confirmed', 'reschedule_requested');

-- The panel, with the slot's times copied so that a clash is one indexed range query per member.
CREATE TABLE interview_panel (
  interview_id TEXT NOT NULL REFERENCES interviews (id),
  user_id TEXT NOT NULL REFERENCES users (id),
  starts_at TIMESTAMPTZ NOT NULL,
  ends_at TIMESTAMPTZ NOT NULL,
  active BOOLEAN NOT NULL DEFAULT TRUE, -- FALSE once the interview is cancelled
  PRIMARY KEY (interview_id, user_id)
);
CREATE INDEX interview_panel_member ON interview_panel (user_id, active, starts_at);

-- Each panel member's score of the interview, on the program rubric's scale.
CREATE TABLE interview_scores (
  interview_id TEXT NOT NULL REFERENCES interviews (id),
  user_id TEXT NOT NULL REFERENCES users (id),
  score INTEGER NOT NULL,
  comment TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (interview_id, user_id)
);

-- One attachment per email (an interview's .ics): sent with the text and HTML parts.
ALTER TABLE email_outbox ADD COLUMN attachment_name TEXT;
ALTER TABLE email_outbox ADD COLUMN attachment_type TEXT;
ALTER TABLE email_outbox ADD COLUMN attachment_content TEXT;
