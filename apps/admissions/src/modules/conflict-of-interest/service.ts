import type { Db } from "../../db/client.ts";
import { isoAt } from "../../lib/ids.ts";
import type { User } from "../users/model.ts";
import type { Origin } from "../workflow/model.ts";
import { loadVisible, recordAudit } from "../workflow/service.ts";

export type ConflictDeps = { db: Db; now: () => number };

type StaffOrigin = Origin & { actor: User };

/**
 * A staff member declares a conflict of interest: they are unassigned, cannot be assigned
 * again, their review (if any) no longer counts, and they no longer see the reviews.
 */
export function declareConflict(
  deps: ConflictDeps,
  origin: StaffOrigin,
  applicationId: string,
  reason: string,
) {
  const at = isoAt(deps.now());
  const reviewer = origin.actor;
  return deps.db.transaction(async (tx) => {
    await loadVisible(tx, applicationId, reviewer);
    await tx`INSERT INTO review_conflicts ${tx({
      application_id: applicationId,
      reviewer_id: reviewer.id,
      reason: reason.trim(),
      created_at: at,
    })} ON CONFLICT (application_id, reviewer_id) DO NOTHING`;
    await tx`DELETE FROM review_assignments
      WHERE application_id = ${applicationId} AND reviewer_id = ${reviewer.id}`;
    await recordAudit(
      tx,
      origin,
      { action: "review.conflict_declared", applicationId, details: { reason: reason.trim() } },
      at,
    );
    return { applicationId, reviewerId: reviewer.id, reason: reason.trim(), at };
  });
}
