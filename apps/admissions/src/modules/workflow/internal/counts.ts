import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import type { ApplicationStatus } from "../model.ts";

/**
 * Running totals per (intake, status) in `application_counts`, changed in the same
 * transaction as the application rows, so a list's `count` is a sum over a few hundred rows
 * however many applications there are.
 */
export async function adjustCount(
  tx: SQL,
  key: { programId: string; intakeId: string; status: ApplicationStatus },
  delta: 1 | -1,
): Promise<void> {
  await tx`INSERT INTO application_counts (program_id, intake_id, status, total)
    VALUES (${key.programId}, ${key.intakeId}, ${key.status}, ${Math.max(delta, 0)})
    ON CONFLICT (intake_id, status)
    DO UPDATE SET total = application_counts.total + ${delta}`;
}

/** Moves one application's count from one status to another. */
export async function moveCount(
  tx: SQL,
  key: { programId: string; intakeId: string },
  from: ApplicationStatus,
  to: ApplicationStatus,
): Promise<void> {
  await adjustCount(tx, { ...key, status: from }, -1);
  await adjustCount(tx, { ...key, status: to }, 1);
}

export type CountFilters = {
  statuses?: readonly ApplicationStatus[];
  programId?: string;
  intakeId?: string;
};

export async function countFromTotals(sql: SQL, f: CountFilters): Promise<number> {
  const [row] = await sql`SELECT COALESCE(sum(total), 0) AS total FROM application_counts
    WHERE ${f.statuses ? sql`status IN ${sql(f.statuses)}` : sql`1 = 1`}
    AND ${f.programId ? sql`program_id = ${f.programId}` : sql`1 = 1`}
    AND ${f.intakeId ? sql`intake_id = ${f.intakeId}` : sql`1 = 1`}`;
  return toInt(row?.total ?? 0);
}

/** Recomputes every total from the applications table: after bulk loads, or as a repair. */
export async function rebuildCounts(tx: SQL): Promise<void> {
  await tx`DELETE FROM application_counts`;
  await tx`INSERT INTO application_counts (program_id, intake_id, status, total)
    SELECT program_id, intake_id, status, count(*) FROM applications
    GROUP BY program_id, intake_id, status`;
}
