-- Documents and payments: the files an applicant attaches and the application fee they pay.
-- One file for SQLite and PostgreSQL (partial indexes and ON CONFLICT are common to both).
-- Money is an integer in minor units beside its ISO 4217 currency.

CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id),
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('uploaded', 'verified', 'rejected')),
  -- The client's filename, sanitised, as metadata only: files are stored under storage_key.
  file_name TEXT NOT NULL,
  media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/jpeg', 'image/png')),
  size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  storage_key TEXT NOT NULL UNIQUE,
  uploaded_by TEXT NOT NULL REFERENCES users (id),
  review_note TEXT,
  reviewed_by TEXT REFERENCES users (id),
  reviewed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX documents_application ON documents (application_id, created_at, id);

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id),
  payer_id TEXT NOT NULL REFERENCES users (id),
  provider TEXT NOT NULL CHECK (provider IN ('manual', 'stripe')),
  status TEXT NOT NULL
    CHECK (status IN ('pending', 'succeeded', 'failed', 'expired', 'refunded')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL CHECK (length(currency) = 3),
  amount_refunded INTEGER NOT NULL DEFAULT 0
    CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  -- What the applicant quotes (bank transfer) and support looks up; unique and unguessable.
  reference TEXT NOT NULL UNIQUE,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  checkout_session_id TEXT UNIQUE,
  checkout_url TEXT,
  provider_payment_id TEXT,
  receipt_number INTEGER UNIQUE,
  status_reason TEXT,
  decided_by TEXT REFERENCES users (id),
  expires_at TIMESTAMPTZ NOT NULL,
  paid_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  -- Idempotency-Key is scoped to the account that sent it; the database settles races.
  UNIQUE (payer_id, idempotency_key)
);
CREATE INDEX payments_application ON payments (application_id, created_at, id);
-- At most one payment in flight per application, whoever races to create it.
CREATE UNIQUE INDEX payments_one_pending ON payments (application_id) WHERE status = 'pending';

CREATE TABLE payment_refunds (
  id TEXT PRIMARY KEY,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider_refund_id TEXT,
  refunded_by TEXT NOT NULL REFERENCES users (id),
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_refunds_payment ON payment_refunds (payment_id, created_at, id);

CREATE TABLE fee_waivers (
  application_id TEXT PRIMARY KEY REFERENCES applications (id),
  reason TEXT NOT NULL,
  waived_by TEXT NOT NULL REFERENCES users (id),
  created_at TIMESTAMPTZ NOT NULL
);

-- Receipt numbers: one counter row, incremented in the transaction that marks a payment paid.
-- The row lock (PostgreSQL) or the single writer (SQLite) makes them unique and gap-free.
CREATE TABLE receipt_counter (
  name TEXT PRIMARY KEY,
  last_value INTEGER NOT NULL
);
INSERT INTO receipt_counter (name, last_value) VALUES ('receipts', 0);

-- Webhook events already processed, so a redelivered or replayed event changes nothing.
CREATE TABLE webhook_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (provider, event_id)
);
