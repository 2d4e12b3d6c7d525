-- Issue 19 point 9: the audit log becomes a hash chain, and issued PDFs (offer letters, payment
-- receipts) are recorded with their Ed25519 signatures. SQLite and PostgreSQL differ only in
-- the audit trigger; docs/admissions.md ("Tamper-evident audit log") defines the hashes.
--
-- Each entry gets its place in the chain (`seq`, 1, 2, …), the hash of the entry before it
-- (`prev_hash`, 64 zeros for the first), `content_hash` (SHA-256 over `content_salt`, `details`
-- and `client_ip`, the parts an erasure may redact) and `hash` over all of it. They are filled
-- at the end of the inserting transaction, under the chain head's lock (one writer at a time).
ALTER TABLE audit_log ADD COLUMN seq INTEGER;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;
ALTER TABLE audit_log ADD COLUMN content_hash TEXT;
ALTER TABLE audit_log ADD COLUMN content_salt TEXT;
CREATE UNIQUE INDEX audit_log_seq ON audit_log (seq);

CREATE TABLE audit_chain_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
);
INSERT INTO audit_chain_head (id, seq, hash)
  VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Entries written before this migration: chained once at the next start (SQL has no SHA-256 on
-- SQLite), oldest first. Only these ids are: an entry inserted behind the app's back later
-- stays unchained and fails verification.
CREATE TABLE audit_chain_backlog (id TEXT PRIMARY KEY);
INSERT INTO audit_chain_backlog (id) SELECT id FROM audit_log;

-- The one-time chaining (chain columns from NULL, nothing else changing) joins the one-time
-- redaction (0006, which must now leave the chain columns alone and drop the salt) as the only
-- UPDATEs allowed. DELETE stays refused (0004).
DROP TRIGGER audit_log_no_update;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
WHEN NOT (
  NEW.id = OLD.id AND NEW.actor_id IS OLD.actor_id AND NEW.actor_role = OLD.actor_role
  AND NEW.action = OLD.action AND NEW.application_id IS OLD.application_id
  AND NEW.subject_type IS OLD.subject_type AND NEW.subject_id IS OLD.subject_id
  AND NEW.created_at = OLD.created_at
  AND (
    (OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.seq IS NOT NULL
      AND NEW.prev_hash IS NOT NULL AND NEW.details = OLD.details
      AND NEW.client_ip IS OLD.client_ip AND NEW.redacted_at IS OLD.redacted_at
      AND NEW.content_salt IS OLD.content_salt
      AND (OLD.content_hash IS NULL OR NEW.content_hash = OLD.content_hash))
    OR
    (OLD.redacted_at IS NULL AND NEW.redacted_at IS NOT NULL AND NEW.content_salt IS NULL
      AND NEW.seq IS OLD.seq AND NEW.prev_hash IS OLD.prev_hash AND NEW.hash IS OLD.hash
      AND NEW.content_hash IS OLD.content_hash)
  )
)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

-- Signed PDFs: the exact bytes' SHA-256 and the Ed25519 signature over them, with the key that
-- made it (`key_id`, so older documents still verify after a key change). The bytes are kept
-- (base64) so every download is the signed file itself; an erasure deletes them but keeps the
-- row, so a letter the person still holds verifies. `source_hash` fingerprints what the PDF
-- says: asked again with nothing changed, the same document is handed out.
CREATE TABLE signed_documents (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL, -- offer_letter | payment_receipt
  application_id TEXT NOT NULL REFERENCES applications (id),
  payment_id TEXT REFERENCES payments (id),
  owner_id TEXT NOT NULL REFERENCES users (id),
  sha256 TEXT NOT NULL,
  signature TEXT NOT NULL, -- base64url
  key_id TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  pdf_base64 TEXT,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX signed_documents_application ON signed_documents (application_id, created_at);
CREATE INDEX signed_documents_sha256 ON signed_documents (sha256);

-- Public keys documents were signed with, kept after rotation.
CREATE TABLE signing_keys (
  id TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
