-- Review quality (issue 19): blind review per program, a per-program disagreement threshold
-- and the automatic extra review it triggers. One file for SQLite and PostgreSQL.

-- Blind review: reviewers (not admins) see no applicant name, email, prior institution or
-- profile for the program's applications (docs/admissions.md, "Blind review").
ALTER TABLE programs ADD COLUMN blind_review BOOLEAN NOT NULL DEFAULT FALSE;
-- Two weighted totals further apart than this (points on the rubric's scale) ask for an extra
-- review; NULL: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD applies.
ALTER TABLE programs ADD COLUMN review_disagreement_threshold DOUBLE PRECISION;

-- At most one automatic extra review per application (the primary key makes it idempotent).
-- `reviewer_id` NULL: no eligible reviewer was free, the application is flagged for admins
-- until one of them assigns someone by hand (`resolved_at`).
CREATE TABLE review_extra_requests (
  application_id TEXT PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  reviewer_id TEXT REFERENCES users (id),
  low_total DOUBLE PRECISION NOT NULL,
  high_total DOUBLE PRECISION NOT NULL,
  threshold DOUBLE PRECISION NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  resolved_at TIMESTAMPTZ
);
CREATE INDEX review_extra_requests_open ON review_extra_requests (reviewer_id, created_at);
