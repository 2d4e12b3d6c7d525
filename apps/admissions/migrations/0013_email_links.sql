-- Emails' own links (issue: untrusted text in emails): the HTML part of an email makes anchors
-- of the platform's links only, which its template declares, never of URLs in the text (a name
-- or a note someone typed). One file for SQLite and PostgreSQL.

-- A JSON array of the links, each exactly as written in `body`; like `body`, stripped of its
-- `?token=` once delivered. NULL in emails written before: their HTML has no anchors.
ALTER TABLE email_outbox ADD COLUMN links TEXT;
