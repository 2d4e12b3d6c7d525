import { toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { day, letter, type RemindersDeps, sendOnce } from "./claim.ts";

type Row = {
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
  )) as Row[];
  let sent = 0;
  for (const row of rows) {
    const deadline = toIso(row.deadline);
    const done = await sendOnce(
      deps.db,
      {
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
      },
      nowMs,
    );
    if (done) sent++;
  }
  return sent;
}
