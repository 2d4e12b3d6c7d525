import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";

/**
 * The background pass's part: erased applicants' payment records whose retention period has
 * ended are deleted (refunds first), and the request marked purged. Returns how many accounts.
 */
export async function purgeExpiredPayments(db: Db, nowMs: number): Promise<number> {
  const at = isoAt(nowMs);
  const due = (await db.run(
    (sql) => sql`SELECT id, user_id FROM data_requests
      WHERE kind = 'erasure' AND status = 'completed' AND purged_at IS NULL
        AND retain_until <= ${at}
      ORDER BY retain_until LIMIT 100`,
  )) as { id: string; user_id: string }[];
  for (const request of due) {
    await db.transaction(async (tx) => {
      const paid = tx`SELECT p.id FROM payments p JOIN applications a ON a.id = p.application_id
        WHERE a.applicant_id = ${request.user_id}`;
      await tx`DELETE FROM payment_refunds WHERE payment_id IN (${paid})`;
      await tx`DELETE FROM payments WHERE id IN (${paid})`;
      await tx`UPDATE data_requests SET purged_at = ${at} WHERE id = ${request.id}`;
    });
  }
  return due.length;
}
