import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { toIso } from "../../../db/dialect.ts";
import { type Filters, whereOf } from "../../applications/service.ts";
import { type ApplicationRow, selectApplications, toApplication } from "../../workflow/service.ts";
import type { ExportQuery } from "../model.ts";
import { csvRow } from "./csv.ts";
import { officeWhere, paymentStateOf, scoreOf } from "./office-queue.ts";

const BATCH = 500;

export const EXPORT_COLUMNS = [
  "id",
  "status",
  "applicant_name",
  "applicant_email",
  "program_code",
  "program_name",
  "intake_term",
  "created_at",
  "submitted_at",
  "reviewers",
  "reviews",
  "offer_respond_by",
  "offer_conditions",
  "waitlist_position",
  "score",
  "payment_state",
] as const;

type Cursor = { createdAt: string; id: string } | null;

type Batch = ApplicationRow & { score: unknown; payment_state: string };

async function batchAfter(
  sql: SQL,
  filters: Filters,
  office: ExportQuery,
  cursor: Cursor,
): Promise<Batch[]> {
  const after = cursor
    ? sql`(a.created_at > ${cursor.createdAt} OR (a.created_at = ${cursor.createdAt} AND a.id > ${cursor.id}))`
    : sql`1 = 1`;
  return (await sql`SELECT * FROM (${selectApplications(sql)}) AS a0
    JOIN (SELECT a.id AS batch_id, ${scoreOf(sql)} AS score, ${paymentStateOf(sql)} AS payment_state
      FROM applications a JOIN users u ON u.id = a.applicant_id
      JOIN programs p ON p.id = a.program_id
      WHERE ${whereOf(sql, filters)} AND ${officeWhere(sql, office)} AND ${after}
      ORDER BY a.created_at ASC, a.id ASC LIMIT ${BATCH}) AS batch ON batch.batch_id = a0.id
    ORDER BY a0.created_at ASC, a0.id ASC`) as Batch[];
}

async function reviewersOf(sql: SQL, ids: string[]) {
  const rows = (await sql`SELECT ra.application_id, u.email FROM review_assignments ra
    JOIN users u ON u.id = ra.reviewer_id WHERE ra.application_id IN ${sql(ids)}
    ORDER BY u.email`) as { application_id: string; email: string }[];
  const counts = (await sql`SELECT application_id, count(*) AS n FROM reviews
    WHERE application_id IN ${sql(ids)} GROUP BY application_id`) as {
    application_id: string;
    n: unknown;
  }[];
  const emails = new Map<string, string[]>();
  for (const row of rows)
    emails.set(row.application_id, [...(emails.get(row.application_id) ?? []), row.email]);
  return { emails, reviews: new Map(counts.map((c) => [c.application_id, Number(c.n)])) };
}

/**
 * The applications `filters` and the office's filters select as CSV, streamed: rows are read 500 at a time in creation
 * order (keyset, so each batch is an index range whatever the depth) and written as they come,
 * so memory stays flat however many match.
 */
export function csvOf(db: Db, filters: Filters, office: ExportQuery): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor = null;
  let headerSent = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(EXPORT_COLUMNS)));
        return;
      }
      if (done) return controller.close();
      const { rows, extra } = await db.run(async (sql) => {
        const rows = await batchAfter(sql, filters, office, cursor);
        const extra = rows.length
          ? await reviewersOf(
              sql,
              rows.map((r) => r.id),
            )
          : null;
        return { rows, extra };
      });
      if (rows.length < BATCH) done = true;
      const last = rows.at(-1);
      if (last) cursor = { createdAt: toIso(last.created_at), id: last.id };
      let chunk = "";
      for (const row of rows) {
        const a = toApplication(row);
        chunk += csvRow([
          a.id,
          a.status,
          a.applicant.fullName,
          a.applicant.email,
          a.program.code,
          a.program.name,
          a.intake.term,
          a.createdAt,
          a.submittedAt,
          (extra?.emails.get(a.id) ?? []).join(" "),
          extra?.reviews.get(a.id) ?? 0,
          a.offer?.respondBy ?? null,
          a.offer?.conditions.join(" | ") ?? null,
          a.waitlistPosition,
          row.score === null ? null : (Math.round(Number(row.score) * 100) / 100).toFixed(2),
          row.payment_state,
        ]);
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}
