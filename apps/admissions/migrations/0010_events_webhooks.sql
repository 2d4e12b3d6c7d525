-- Integrations (issue 19): the change feed's events and the signed outgoing webhooks delivered
-- from them. One file for SQLite and PostgreSQL.

-- What happened, written in the same transaction as the change it describes (a transactional
-- outbox). `position` is the feed's cursor: NULL when written, assigned after commit by the one
-- publisher at a time (events/internal/publish.ts), so positions are gap-free and a reader can
-- never see position n+1 before n (see docs/decisions.md, "Change feed cursor").
CREATE TABLE events (
  id TEXT PRIMARY KEY, -- UUIDv7; the webhook-id receivers deduplicate on
  position BIGINT UNIQUE,
  type TEXT NOT NULL,
  application_id TEXT, -- no foreign key: an erased application's events stay (data holds ids only)
  subject_type TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX events_unpublished ON events (created_at, id) WHERE position IS NULL;

-- Where admins send events. The secret is sealed (AES-256-GCM) and shown once, at creation or
-- rotation. `event_types` is a JSON array of types, or ["*"] for every type.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  description TEXT,
  event_types TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

-- One event to one endpoint: the webhook outbox, retried with backoff until delivered or dead.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  last_status_code INTEGER,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  delivered_at TIMESTAMPTZ,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- Every attempt of a delivery, for admins finding out why a receiver fails.
CREATE TABLE webhook_attempts (
  id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at TIMESTAMPTZ NOT NULL,
  status_code INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);
