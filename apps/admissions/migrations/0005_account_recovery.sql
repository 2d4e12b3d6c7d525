-- Account recovery (issue 15): email verification, single-use account links (password reset,
-- verification, email change) and the list of each account's sign-ins. One file for SQLite
-- and PostgreSQL.

-- NULL until the account proves it reads its address (a verification link, or a password reset
-- sent there). Applicants must be verified before they submit an application.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMPTZ;

-- The links emailed to an account. Only the SHA-256 of the token is kept: a copy of the
-- database cannot be used to take over an account. A token works once (`used_at`) and until
-- `expires_at`.
CREATE TABLE account_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify', 'change_email')),
  token_hash TEXT NOT NULL UNIQUE, -- base64url SHA-256 of the token
  email TEXT NOT NULL, -- where the link was sent: the new address for change_email
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);
CREATE INDEX account_tokens_user ON account_tokens (user_id, purpose);

-- Every sign-in of an account, for the account's own list of its sessions. The shared store
-- stays the authority on whether a sign-in is alive; this is what it cannot answer: which
-- sign-ins one account has, from where, last used when.
CREATE TABLE user_sessions (
  id TEXT PRIMARY KEY, -- the sign-in's family id (the access token's `sid`)
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip TEXT,
  user_agent TEXT, -- truncated to 256 characters
  created_at TIMESTAMPTZ NOT NULL,
  last_used_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX user_sessions_user ON user_sessions (user_id, created_at);
