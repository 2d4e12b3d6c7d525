import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { type Dialect, skipLocked, toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../../lib/pagination.ts";
import type { TransitionEffects } from "../../workflow/model.ts";
import type { OutboxEmail, OutboxQuery } from "../model.ts";
import { emailFor } from "./templates.ts";

/** A file sent with an email (an interview's .ics): its name, MIME type and text. */
export type EmailAttachment = { name: string; type: string; content: string };

/** Writes an email to the outbox, in the caller's transaction: sent only if the change commits. */
export async function enqueueEmail(
  tx: SQL,
  email: {
    applicationId: string | null;
    event: string;
    to: string;
    subject: string;
    body: string;
    /** The platform's links in `body`, as written there: the only anchors of its HTML part. */
    links?: readonly string[];
    attachment?: EmailAttachment;
  },
  at: string,
): Promise<void> {
  await tx`INSERT INTO email_outbox ${tx({
    id: newId(),
    application_id: email.applicationId,
    event: email.event,
    to_address: email.to,
    subject: email.subject,
    body: email.body,
    links: JSON.stringify(email.links ?? []),
    status: "pending",
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
    attachment_name: email.attachment?.name ?? null,
    attachment_type: email.attachment?.type ?? null,
    attachment_content: email.attachment?.content ?? null,
  })}`;
}

/** Every applicant-visible move writes the applicant's email in the move's transaction. */
export const notificationEffects: TransitionEffects = {
  prepare: async () => ({}),
  async settle(move, after) {
    const email = emailFor(after);
    if (!email) return;
    await enqueueEmail(
      move.tx,
      { applicationId: after.id, event: after.status, to: after.applicant.email, ...email },
      move.at,
    );
  },
};

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

const toOutboxEmail = (row: OutboxRow): OutboxEmail => ({
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

/** The outbox, newest first, for admins watching delivery. */
export function listOutbox(
  db: Db,
  query: OutboxQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<OutboxEmail>> {
  return db.run(async (sql) => {
    const where = [
      query.status ? sql`status = ${query.status}` : sql`1 = 1`,
      query.applicationId ? sql`application_id = ${query.applicationId}` : sql`1 = 1`,
    ].reduce((all, next) => sql`${all} AND ${next}`);
    const [total] = await sql`SELECT count(*) AS total FROM email_outbox WHERE ${where}`;
    const rows = (await sql`SELECT * FROM email_outbox WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`) as OutboxRow[];
    return toPage(requestUrl, page, toInt(total?.total ?? 0), rows.map(toOutboxEmail));
  });
}

/** Emails by status (pending is the backlog, dead the ones that ran out of tries): metrics. */
export function outboxCounts(db: Db): Promise<Record<OutboxRow["status"], number>> {
  return db.run(async (sql) => {
    const rows = (await sql`SELECT status, count(*) AS n FROM email_outbox GROUP BY status`) as {
      status: OutboxRow["status"];
      n: unknown;
    }[];
    const counts = { pending: 0, sent: 0, dead: 0 };
    for (const row of rows) counts[row.status] = toInt(row.n);
    return counts;
  });
}
