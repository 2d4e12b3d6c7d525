import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { Mailer } from "./mailer.ts";
import { attachmentOf, claimDueEmails, linksOf, markFailed, markSent } from "./outbox.ts";

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
