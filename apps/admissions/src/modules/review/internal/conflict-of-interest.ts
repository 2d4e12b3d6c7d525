import type { SQL } from "bun";

/*
 * A staff member's conflict of interest with an application: once declared they are no longer
 * assigned, cannot be assigned again, and their review (if any) no longer counts.
 */

export const isConflicted = async (sql: SQL, applicationId: string, reviewerId: string) =>
  (
    await sql`SELECT 1 AS yes FROM review_conflicts
      WHERE application_id = ${applicationId} AND reviewer_id = ${reviewerId}`
  ).length > 0;

/** Records the conflict (once) and ends the reviewer's assignment to the application. */
export async function recordConflict(
  tx: SQL,
  applicationId: string,
  reviewerId: string,
  reason: string,
  at: string,
): Promise<void> {
  await tx`INSERT INTO review_conflicts ${tx({
    application_id: applicationId,
    reviewer_id: reviewerId,
    reason,
    created_at: at,
  })} ON CONFLICT (application_id, reviewer_id) DO NOTHING`;
  await tx`DELETE FROM review_assignments
    WHERE application_id = ${applicationId} AND reviewer_id = ${reviewerId}`;
}
