import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import type { Workload, WorkloadQuery } from "../model.ts";

/* How much each reviewer has on their desk, for choosing whom to assign. */

/** Statuses an assignment still counts in: the application awaits a decision. */
const OPEN = ["submitted", "under_review", "interviewing"];

/** Active staff (a programme's pool with `programId`), the least loaded first; at most 500. */
export async function workloadOf(sql: SQL, query: WorkloadQuery): Promise<Workload> {
  const pool = query.programId
    ? sql`JOIN program_reviewers pr ON pr.reviewer_id = u.id AND pr.program_id = ${query.programId}`
    : sql``;
  const rows = (await sql`SELECT u.id, u.full_name, u.email,
      (SELECT count(*) FROM review_assignments ra
        JOIN applications a ON a.id = ra.application_id
        WHERE ra.reviewer_id = u.id AND a.status IN ${sql(OPEN)}) AS open,
      (SELECT count(*) FROM review_assignments ra
        JOIN applications a ON a.id = ra.application_id
        JOIN reviews r ON r.application_id = ra.application_id AND r.reviewer_id = ra.reviewer_id
        WHERE ra.reviewer_id = u.id AND a.status IN ${sql(OPEN)}) AS reviewed
    FROM users u ${pool}
    WHERE u.active = ${true} AND u.role IN ${sql(["reviewer", "admin"])}
    ORDER BY open ASC, lower(u.full_name) ASC, u.id ASC LIMIT 500`) as {
    id: string;
    full_name: string;
    email: string;
    open: unknown;
    reviewed: unknown;
  }[];
  return {
    results: rows.map((row) => ({
      reviewer: { id: row.id, fullName: row.full_name, email: row.email },
      open: toInt(row.open),
      reviewed: toInt(row.reviewed),
    })),
  };
}
