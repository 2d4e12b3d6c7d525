import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toInt, toIso } from "../../db/dialect.ts";
import { isoAt } from "../../lib/ids.ts";
import { enqueueEmail } from "../outbox/service.ts";

/*
 * Deadlines, reminders and staff digests (issue 19), sent by the background pass through the
 * outbox, each at most once (reminders_sent): draft deadline notices to applicants, decision
 * due reminders to reviewers, the daily digest of new submissions to admins.
 */

export type ReminderSettings = {
  /** Drafts are told this long before their intake's deadline. */
  draftNoticeMs: number;
  /** Reviewers are reminded this long before an intake's decisions are due. */
  decisionReminderMs: number;
  /** The daily digest goes out at or after this hour (UTC, by the app's clock). */
  digestHourUtc: number;
};

export type RemindersDeps = { db: Db; now: () => number; reminders: ReminderSettings };

type Reminder = {
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
async function sendOnce(db: Db, reminder: Reminder, nowMs: number): Promise<boolean> {
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

const letter = (fullName: string, body: string) =>
  `Dear ${fullName},\n\n${body}\n\nAdmissions Office`;

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** Sends each reminder once; how many went out in this pass. */
async function sendEach(db: Db, reminders: Reminder[], nowMs: number): Promise<number> {
  let sent = 0;
  for (const reminder of reminders) if (await sendOnce(db, reminder, nowMs)) sent++;
  return sent;
}

type DraftRow = {
  id: string;
  email: string;
  full_name: string;
  program_name: string;
  term: string;
  deadline: unknown;
};

/**
 * Tells applicants whose draft is still unsubmitted that their intake's deadline is near,
 * once per draft and deadline. Those already told are left out by the query, so a pass reads
 * only the drafts still to tell, whatever the backlog.
 */
export async function sendDraftDeadlineNotices(deps: RemindersDeps, limit = 200): Promise<number> {
  const nowMs = deps.now();
  const rows = (await deps.db.run(
    (sql) => sql`SELECT a.id, u.email, u.full_name, p.name AS program_name, i.term, i.deadline
      FROM applications a
      JOIN intakes i ON i.id = a.intake_id
      JOIN users u ON u.id = a.applicant_id
      JOIN programs p ON p.id = a.program_id
      WHERE a.status = 'draft'
        AND i.deadline > ${isoAt(nowMs)}
        AND i.deadline <= ${isoAt(nowMs + deps.reminders.draftNoticeMs)}
        AND NOT EXISTS (SELECT 1 FROM reminders_sent r WHERE r.kind = 'draft_deadline'
          AND r.subject_id = a.id AND r.due_at = i.deadline)
      ORDER BY i.deadline, a.id LIMIT ${limit}`,
  )) as DraftRow[];
  const reminders = rows.map((row): Reminder => {
    const deadline = toIso(row.deadline);
    return {
      kind: "draft_deadline",
      subjectId: row.id,
      dueAt: deadline,
      email: {
        applicationId: row.id,
        to: row.email,
        subject: `Your application is not submitted yet: ${row.program_name}`,
        body: letter(
          row.full_name,
          `Your application to ${row.program_name} (${row.term}) is still a draft. The deadline is ${day(deadline)} UTC: a draft not submitted by then cannot be submitted.\n\nApplication reference: ${row.id}`,
        ),
      },
    };
  });
  return sendEach(deps.db, reminders, nowMs);
}

type DueRow = {
  intake_id: string;
  term: string;
  decisions_due_at: unknown;
  program_name: string;
  reviewer_id: string;
  email: string;
  full_name: string;
  waiting: unknown;
};

/**
 * Reminds each reviewer with applications of an intake still waiting for their review
 * (submitted or under review, assigned to them, no review of theirs yet) that the intake's
 * decisions are due soon: one email per reviewer, intake and due date.
 */
export async function sendDecisionDueReminders(deps: RemindersDeps, limit = 200): Promise<number> {
  const nowMs = deps.now();
  const rows = (await deps.db.run(
    (sql) => sql`SELECT i.id AS intake_id, i.term, i.decisions_due_at, p.name AS program_name,
        ra.reviewer_id, u.email, u.full_name, count(*) AS waiting
      FROM intakes i
      JOIN programs p ON p.id = i.program_id
      JOIN applications a ON a.intake_id = i.id AND a.status IN ('submitted', 'under_review', 'interviewing')
      JOIN review_assignments ra ON ra.application_id = a.id
      JOIN users u ON u.id = ra.reviewer_id AND u.active = ${true}
      WHERE i.decisions_due_at > ${isoAt(nowMs)}
        AND i.decisions_due_at <= ${isoAt(nowMs + deps.reminders.decisionReminderMs)}
        AND NOT EXISTS (SELECT 1 FROM reviews rv
          WHERE rv.application_id = a.id AND rv.reviewer_id = ra.reviewer_id)
        AND NOT EXISTS (SELECT 1 FROM reminders_sent r WHERE r.kind = 'decisions_due'
          AND r.subject_id = i.id || ':' || ra.reviewer_id AND r.due_at = i.decisions_due_at)
      GROUP BY i.id, i.term, i.decisions_due_at, p.name, ra.reviewer_id, u.email, u.full_name
      ORDER BY i.decisions_due_at, i.id, ra.reviewer_id LIMIT ${limit}`,
  )) as DueRow[];
  const reminders = rows.map((row): Reminder => {
    const dueAt = toIso(row.decisions_due_at);
    const waiting = toInt(row.waiting);
    return {
      kind: "decisions_due",
      subjectId: `${row.intake_id}:${row.reviewer_id}`,
      dueAt,
      email: {
        applicationId: null,
        to: row.email,
        subject: `Reviews due by ${day(dueAt)} UTC: ${row.program_name} (${row.term})`,
        body: letter(
          row.full_name,
          `Decisions for ${row.program_name} (${row.term}) are due by ${day(dueAt)} UTC. ${waiting} application${waiting === 1 ? "" : "s"} assigned to you still wait${waiting === 1 ? "s" : ""} for your review: see your queue in the staff console.`,
        ),
      },
    };
  });
  return sendEach(deps.db, reminders, nowMs);
}

const DAY = 86_400_000;

/**
 * Once a day (from `digestHourUtc`, by the app's clock) every active admin gets the count of
 * applications submitted the previous UTC day, by program; nothing when there were none. The
 * day is the reminder's key, so each admin gets one digest per day whatever the passes.
 */
export async function sendAdminDigests(deps: RemindersDeps): Promise<number> {
  const nowMs = deps.now();
  const today = Math.floor(nowMs / DAY) * DAY;
  if (nowMs - today < deps.reminders.digestHourUtc * 3_600_000) return 0;
  const dayKey = isoAt(today);
  const { programs, admins } = await deps.db.run(async (sql) => ({
    programs: (await sql`SELECT p.code, p.name, count(*) AS total
      FROM applications a JOIN programs p ON p.id = a.program_id
      WHERE a.submitted_at >= ${isoAt(today - DAY)} AND a.submitted_at < ${dayKey}
      GROUP BY p.code, p.name ORDER BY p.code`) as { code: string; name: string; total: unknown }[],
    admins: (await sql`SELECT u.id, u.email, u.full_name FROM users u
      WHERE u.role = 'admin' AND u.active = ${true}
        AND NOT EXISTS (SELECT 1 FROM reminders_sent r WHERE r.kind = 'admin_digest'
          AND r.subject_id = u.id AND r.due_at = ${dayKey})
      ORDER BY u.id`) as { id: string; email: string; full_name: string }[],
  }));
  if (programs.length === 0) return 0;
  const total = programs.reduce((all, p) => all + toInt(p.total), 0);
  const date = isoAt(today - DAY).slice(0, 10);
  const lines = programs.map((p) => `- ${p.name} (${p.code}): ${toInt(p.total)}`).join("\n");
  const reminders = admins.map(
    (admin): Reminder => ({
      kind: "admin_digest",
      subjectId: admin.id,
      dueAt: dayKey,
      email: {
        applicationId: null,
        to: admin.email,
        subject: `New submissions on ${date}: ${total}`,
        body: letter(
          admin.full_name,
          `${total} application${total === 1 ? " was" : "s were"} submitted on ${date} (UTC):\n\n${lines}`,
        ),
      },
    }),
  );
  return sendEach(deps.db, reminders, nowMs);
}
