import { toInt, toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { day, letter, type RemindersDeps, sendOnce } from "./claim.ts";

type Row = {
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
  )) as Row[];
  let sent = 0;
  for (const row of rows) {
    const dueAt = toIso(row.decisions_due_at);
    const waiting = toInt(row.waiting);
    const done = await sendOnce(
      deps.db,
      {
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
      },
      nowMs,
    );
    if (done) sent++;
  }
  return sent;
}
