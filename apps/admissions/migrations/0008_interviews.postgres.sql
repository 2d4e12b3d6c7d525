-- Interviews (issue 19): slots with a panel, invitations with an iCalendar attachment, panel
-- scores, and the `interviewing` status. PostgreSQL: the status CHECK is replaced in place
-- (0008_interviews.sqlite.sql rebuilds the table instead; the rest of the two files is the same).

ALTER TABLE applications DROP CONSTRAINT applications_status_check;
ALTER TABLE applications ADD CONSTRAINT applications_status_check CHECK (status IN (
  'draft', 'submitted', 'under_review', 'interviewing', 'offered', 'conditionally_offered',
  'waitlisted', 'rejected', 'accepted', 'declined', 'offer_expired', 'enrolled',
  'conditions_not_met', 'withdrawn'
));

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
