import { toInt } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { letter, type RemindersDeps, sendOnce } from "./claim.ts";

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
  let sent = 0;
  for (const admin of admins) {
    const done = await sendOnce(
      deps.db,
      {
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
      },
      nowMs,
    );
    if (done) sent++;
  }
  return sent;
}
