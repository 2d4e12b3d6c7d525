import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import type { MoveDeps } from "../../workflow/model.ts";
import { moveOnDeadline } from "../../workflow/service.ts";

export type ExpiryDeps = { db: Db; now: () => number; move: MoveDeps; logger: Logger };

/**
 * Expires the offers whose deadline has passed, each in its own transaction through the
 * lifecycle table (as the system), so the applicant is told and the seat frees. Safe with
 * several replicas: each move takes the intake's lock and re-reads the status under it, so an
 * offer expired, accepted or declined meanwhile is skipped (ILLEGAL_TRANSITION) and never
 * moved twice.
 */
export async function expireDueOffers(deps: ExpiryDeps, limit = 100): Promise<number> {
  const nowMs = deps.now();
  const due = (await deps.db.run(
    (sql) => sql`SELECT id, offer_respond_by FROM applications
      WHERE status IN ('offered', 'conditionally_offered') AND offer_respond_by <= ${isoAt(nowMs)}
      ORDER BY offer_respond_by, id LIMIT ${limit}`,
  )) as { id: string }[];
  const reason = "Not answered before the deadline";
  let expired = 0;
  for (const { id } of due) {
    if (await moveOnDeadline(deps, id, "offer_expired", reason, nowMs)) {
      expired++;
    } else {
      deps.logger.debug("offer not expired: it moved meanwhile", { applicationId: id });
    }
  }
  return expired;
}
