import type { Db } from "../../../db/client.ts";
import { toBool, toInt, toIso } from "../../../db/dialect.ts";
import { type Page, type PageOf, toPage } from "../../../lib/pagination.ts";
import type { User } from "../../users/model.ts";
import {
  type ApplicationRow,
  blinderFor,
  selectApplications,
  toApplication,
} from "../../workflow/service.ts";
import type { QueueItem, QueueQuery } from "../model.ts";

export type QueueDeps = { db: Db };

/** The reviewer's own queue: their assignments still awaiting a decision, oldest first. */
export function reviewQueue(
  deps: QueueDeps,
  reviewer: User,
  query: QueueQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<QueueItem>> {
  return deps.db.run(async (sql) => {
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
    const blind = await blinderFor(sql, reviewer);
    const byId = new Map(extra.map((row) => [row.application_id, row]));
    const items = rows.map((row) => {
      const meta = byId.get(row.id);
      return {
        application: blind(toApplication(row)),
        assignedAt: toIso(meta?.assigned_at),
        reviewed: toBool(meta?.reviewed),
      };
    });
    return toPage(requestUrl, page, toInt(total?.total ?? 0), items);
  });
}
