-- The system (offer expiry) moves applications too: it has no user row. SQLite cannot drop a
-- NOT NULL constraint, so the table is rebuilt (nothing references it).
CREATE TABLE application_transitions_new (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id),
  from_status TEXT,
  to_status TEXT NOT NULL,
  actor_id TEXT REFERENCES users (id), -- NULL for the system
  actor_role TEXT NOT NULL,
  reason TEXT,
  client_ip TEXT,
  created_at TIMESTAMPTZ NOT NULL
);
INSERT INTO application_transitions_new SELECT
  id, application_id, from_status, to_status, actor_id, actor_role, reason, client_ip, created_at
  FROM application_transitions;
DROP TABLE application_transitions;
ALTER TABLE application_transitions_new RENAME TO application_transitions;
CREATE INDEX application_transitions_application
  ON application_transitions (application_id, created_at, id);

-- The audit log is append-only, whoever connects: UPDATE and DELETE are refused.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
