import type { SQL } from "bun";
import { toBool, toInt, toIso } from "../../../db/dialect.ts";
import type { Page } from "../../../lib/pagination.ts";
import type { User } from "../../users/model.ts";
import { type ApplicationRow, selectApplications } from "../../workflow/service.ts";
import type { QueueQuery } from "../model.ts";

/** A reviewer's assignments still awaiting a decision, oldest submission first: one page. */
export async function assignedTo(sql: SQL, reviewer: User, query: QueueQuery, page: Page) {
  const reviewed = sql`EXISTS (SELECT 1 FROM reviews r
    WHERE r.application_id = ra.application_id AND r.reviewer_id = ra.reviewer_id)`;
  const where = sql`ra.reviewer_id = ${reviewer.id}
    AND a.status IN ('submitted', 'under_review', 'interviewing')
    ${query.pending ? sql`AND NOT ${reviewed}` : sql``}`;
  const [total] = await sql`SELECT count(*) AS total FROM review_assignments ra
    JOIN applications a ON a.id = ra.application_id WHERE ${where}`;
  const rows = (await sql`${selectApplications(sql)}
    JOIN review_assignments ra ON ra.application_id = a.id
    WHERE ${where}
    ORDER BY a.submitted_at ASC, a.id ASC LIMIT ${page.limit} OFFSET ${page.offset}`) as ApplicationRow[];
  const ids = rows.map((row) => row.id);
  const extra = ids.length
    ? ((await sql`SELECT ra.application_id, ra.assigned_at, ${reviewed} AS reviewed
        FROM review_assignments ra
        WHERE ra.reviewer_id = ${reviewer.id} AND ra.application_id IN ${sql(ids)}`) as {
        application_id: string;
        assigned_at: unknown;
        reviewed: unknown;
      }[])
    : [];
  const byId = new Map(extra.map((row) => [row.application_id, row]));
  return {
    total: toInt(total?.total ?? 0),
    items: rows.map((row) => {
      const meta = byId.get(row.id);
      return { row, assignedAt: toIso(meta?.assigned_at), reviewed: toBool(meta?.reviewed) };
    }),
  };
}
