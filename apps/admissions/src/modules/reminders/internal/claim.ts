import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import { enqueueEmail } from "../../outbox/service.ts";

export type ReminderSettings = {
  /** Drafts are told this long before their intake's deadline. */
  draftNoticeMs: number;
  /** Reviewers are reminded this long before an intake's decisions are due. */
  decisionReminderMs: number;
  /** The daily digest goes out at or after this hour (UTC, by the app's clock). */
  digestHourUtc: number;
};

export type RemindersDeps = { db: Db; now: () => number; reminders: ReminderSettings };

export type Reminder = {
  kind: "draft_deadline" | "decisions_due" | "admin_digest";
  subjectId: string;
  dueAt: string;
  email: { applicationId: string | null; to: string; subject: string; body: string };
};

/**
 * Sends one reminder at most once: the key (kind, subject, due date) and the email are written
 * in one transaction, and a key already there (another pass, another replica, even one that is
 * still committing: PostgreSQL makes the second insert wait for the first) sends nothing.
 */
export async function sendOnce(db: Db, reminder: Reminder, nowMs: number): Promise<boolean> {
  const at = isoAt(nowMs);
  return db.transaction(async (tx: SQL) => {
    const claimed = await tx`INSERT INTO reminders_sent ${tx({
      kind: reminder.kind,
      subject_id: reminder.subjectId,
      due_at: reminder.dueAt,
      sent_at: at,
    })} ON CONFLICT DO NOTHING RETURNING kind`;
    if (claimed.length !== 1) return false;
    await enqueueEmail(tx, { ...reminder.email, event: `reminder.${reminder.kind}` }, at);
    return true;
  });
}

export const letter = (fullName: string, body: string) =>
  `Dear ${fullName},\n\n${body}\n\nAdmissions Office`;

export const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
