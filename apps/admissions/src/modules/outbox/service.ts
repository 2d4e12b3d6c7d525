import type { Logger } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toInt } from "../../db/dialect.ts";
import { newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import type { TransitionEffects } from "../workflow/model.ts";
import type { Mailer } from "./internal/mailer.ts";
import {
  attachmentOf,
  claimDueEmails,
  type EmailAttachment,
  linksOf,
  markFailed,
  markSent,
  type OutboxRow,
  toOutboxEmail,
} from "./internal/queries.ts";
import { emailFor } from "./internal/templates.ts";
import type { OutboxEmail, OutboxQuery } from "./model.ts";

/*
 * The emails the platform sends: written to the outbox in the transaction of the change they
 * tell of (sent only if it commits), delivered by the background pass with retries, watched by
 * admins. The applicants' notifications of each move are written here too.
 */

/** Built once by the server (index.ts): SMTP when configured, else a mailer that logs. */
export { dropMailer, type Mailer, smtpMailer } from "./internal/mailer.ts";
export type { EmailAttachment };

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

export type DeliveryPolicy = {
  maxAttempts: number;
  /** How long a claimed email stays invisible to other passes (longer than any send). */
  leaseMs: number;
  batchSize: number;
  /** First retry delay; doubled each attempt up to `maxBackoffMs`. */
  baseBackoffMs: number;
  maxBackoffMs: number;
};

/** The policy's fixed part; attempts and the first delay are configured (config.ts). */
export const DELIVERY_TIMING = {
  leaseMs: 120_000,
  batchSize: 20,
  maxBackoffMs: 3_600_000,
} satisfies Partial<DeliveryPolicy>;

export type DeliveryDeps = {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  now: () => number;
  policy: DeliveryPolicy;
};

/** 30 s, 1 min, 2 min, … doubling, capped: the delay after the `attempts`-th failure. */
export const backoffMs = (policy: DeliveryPolicy, attempts: number): number =>
  Math.min(policy.baseBackoffMs * 2 ** Math.max(0, attempts - 1), policy.maxBackoffMs);

/**
 * One pass: claims the due emails and sends them one by one, outside any transaction (a slow
 * SMTP server holds no database lock). Each is marked sent, or due again after its backoff, or
 * dead after the last attempt. Returns how many were sent and how many failed.
 */
export async function deliverDueEmails(
  deps: DeliveryDeps,
): Promise<{ sent: number; failed: number }> {
  const { db, mailer, logger, policy } = deps;
  const claimed = await claimDueEmails(db, deps.now(), policy.leaseMs, policy.batchSize);
  let sent = 0;
  let failed = 0;
  for (const row of claimed) {
    try {
      await mailer.send({
        id: row.id,
        to: row.to_address,
        subject: row.subject,
        body: row.body,
        links: linksOf(row),
        event: row.event,
        applicationId: row.application_id,
        attachment: attachmentOf(row),
      });
      await markSent(db, row, mailer.name, deps.now());
      sent++;
    } catch (error) {
      failed++;
      const attempts = Number(row.attempts);
      const message = error instanceof Error ? error.message : String(error);
      const retryAt =
        attempts >= policy.maxAttempts ? null : deps.now() + backoffMs(policy, attempts);
      await markFailed(db, row.id, message.slice(0, 500), retryAt);
      logger.warn("email delivery failed", {
        emailId: row.id,
        attempts,
        retryAt: retryAt === null ? "never (dead)" : new Date(retryAt).toISOString(),
        error: message,
      });
    }
  }
  return { sent, failed };
}

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
