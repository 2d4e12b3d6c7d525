import type { Db } from "../../../db/client.ts";
import { type Dialect, skipLocked, toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import type { OutboxEmail } from "../model.ts";

/* The outbox as rows: claimed for delivery, marked sent or failed, shown to admins. */

/** A file sent with an email (an interview's .ics): its name, MIME type and text. */
export type EmailAttachment = { name: string; type: string; content: string };

export type OutboxRow = {
  id: string;
  application_id: string | null;
  event: string;
  to_address: string;
  subject: string;
  body: string;
  /** JSON array; null in rows written before migration 0013 (their HTML has no anchors). */
  links?: string | null;
  status: "pending" | "sent" | "dead";
  attempts: number;
  next_attempt_at: unknown;
  last_error: string | null;
  transport: string | null;
  created_at: unknown;
  sent_at: unknown;
  attachment_name?: string | null;
  attachment_type?: string | null;
  attachment_content?: string | null;
};

/** The row's attachment, when it has one. */
export const attachmentOf = (row: OutboxRow): EmailAttachment | undefined =>
  row.attachment_name && row.attachment_type && row.attachment_content
    ? { name: row.attachment_name, type: row.attachment_type, content: row.attachment_content }
    : undefined;

/** The row's declared links (the platform's), none when it declared none. */
export function linksOf(row: OutboxRow): string[] {
  const parsed: unknown = row.links ? JSON.parse(row.links) : [];
  return Array.isArray(parsed) ? parsed.filter((link) => typeof link === "string") : [];
}

/**
 * Takes up to `limit` due emails for delivery. Claiming pushes `next_attempt_at` a lease ahead
 * and counts the attempt, in one statement: another replica (SKIP LOCKED on PostgreSQL) or the
 * next pass does not take them again while they are being sent, and if this process dies
 * mid-send they become due again when the lease ends, so nothing is lost.
 */
export async function claimDueEmails(
  db: Db,
  nowMs: number,
  leaseMs: number,
  limit: number,
): Promise<OutboxRow[]> {
  const dialect: Dialect = db.dialect;
  const claimed: OutboxRow[] = await db.run(
    (sql) => sql`UPDATE email_outbox
      SET next_attempt_at = ${isoAt(nowMs + leaseMs)}, attempts = attempts + 1
      WHERE id IN (SELECT id FROM email_outbox
        WHERE status = 'pending' AND next_attempt_at <= ${isoAt(nowMs)}
        ORDER BY next_attempt_at, id LIMIT ${limit}${skipLocked(sql, dialect)})
      RETURNING *`,
  );
  // RETURNING follows no order: send in the order the emails were written (an application's
  // "received" before its decision).
  return claimed.sort(
    (a, b) => toIso(a.created_at).localeCompare(toIso(b.created_at)) || a.id.localeCompare(b.id),
  );
}

/**
 * The token of an emailed link (`?token=`, account emails) left out of a delivered email's
 * stored text: the database keeps only digests of live tokens (account_tokens), so a copy of it
 * must not hold them in the outbox either. Until delivery the text needs its link.
 */
export const withoutLinkTokens = (body: string): string =>
  body.replace(/([?&]token=)[^\s&]+/g, "$1(removed-after-delivery)");

export const markSent = (db: Db, row: OutboxRow, transport: string, nowMs: number) =>
  db.run(
    (sql) => sql`UPDATE email_outbox SET status = 'sent', sent_at = ${isoAt(nowMs)},
      transport = ${transport}, last_error = NULL, body = ${withoutLinkTokens(row.body)},
      links = ${row.links ? withoutLinkTokens(row.links) : null}
      WHERE id = ${row.id} AND status = 'pending'`,
  );

/** A failed attempt: due again after `retryAt`, or dead when `retryAt` is null (out of tries). */
export const markFailed = (db: Db, id: string, error: string, retryAtMs: number | null) =>
  db.run((sql) =>
    retryAtMs === null
      ? sql`UPDATE email_outbox SET status = 'dead', last_error = ${error}
          WHERE id = ${id} AND status = 'pending'`
      : sql`UPDATE email_outbox SET next_attempt_at = ${isoAt(retryAtMs)}, last_error = ${error}
          WHERE id = ${id} AND status = 'pending'`,
  );

export const toOutboxEmail = (row: OutboxRow): OutboxEmail => ({
  id: row.id,
  applicationId: row.application_id,
  event: row.event,
  to: row.to_address,
  subject: row.subject,
  status: row.status,
  attempts: toInt(row.attempts),
  nextAttemptAt: row.status === "pending" ? toIso(row.next_attempt_at) : null,
  lastError: row.last_error,
  createdAt: toIso(row.created_at),
  sentAt: toIsoOrNull(row.sent_at),
});
