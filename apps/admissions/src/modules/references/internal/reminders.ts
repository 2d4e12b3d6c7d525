import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import { digestOf, newLinkToken } from "../../account/service.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import { STATUSES } from "../../workflow/model.ts";
import { isFinal } from "../../workflow/service.ts";
import { claimReminder, dueReminders } from "../queries.ts";
import { LINK_LIFETIME_MS, MAX_REMINDERS } from "./deps.ts";
import { referenceReminderEmail } from "./emails.ts";

/** Applications still deciding: a closed one needs no reference, so its referees hear nothing. */
const DECIDING = STATUSES.filter((status) => !isFinal(status));

export type RefereeRemindersDeps = {
  db: Db;
  now: () => number;
  /** The web portal's base URL: the reminder carries a new link to its reference page. */
  portalUrl: string;
  /** A referee who has not answered is reminded this long after the last email. */
  reminderIntervalMs: number;
};

/**
 * Reminds each referee who has not answered `reminderIntervalMs` after the last email, at most
 * MAX_REMINDERS times, while the application is still deciding. Each reminder carries a new
 * link (the token is only stored hashed, so the old one cannot be sent again) and the old one
 * dies. A claim counts the reminder in the statement that replaces the link, so two passes or
 * replicas never remind the same referee twice in one interval; nothing after receipt.
 */
export async function sendRefereeReminders(
  deps: RefereeRemindersDeps,
  limit = 200,
): Promise<number> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const due = await deps.db.run((sql) =>
    dueReminders(sql, isoAt(nowMs - deps.reminderIntervalMs), MAX_REMINDERS, DECIDING, limit),
  );
  let sent = 0;
  for (const row of due) {
    const token = newLinkToken();
    const expiresAt = isoAt(nowMs + LINK_LIFETIME_MS);
    const done = await deps.db.transaction(async (tx) => {
      const seen = Number(row.reminders_sent);
      if (!(await claimReminder(tx, row.id, seen, { hash: digestOf(token), expiresAt }, at))) {
        return false;
      }
      const email = referenceReminderEmail(
        {
          refereeName: row.referee_name,
          applicantName: row.applicant_name,
          programName: row.program_name,
          term: row.term,
          expiresAt,
        },
        deps.portalUrl,
        token,
      );
      await enqueueEmail(
        tx,
        { applicationId: row.application_id, to: row.referee_email, ...email },
        at,
      );
      return true;
    });
    if (done) sent++;
  }
  return sent;
}
