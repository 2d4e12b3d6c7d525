import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { toBool, toInt } from "../../../db/dialect.ts";
import type { User } from "../../users/model.ts";
import type { Application, Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import { lockedPool, notifyReviewer, takeAssignment } from "./assignments.ts";
import { isConflicted } from "./conflict-of-interest.ts";

/*
 * The automatic extra review (docs/admissions.md, "Extra review on disagreement"): when two
 * weighted totals on one application are further apart than the program's threshold, one
 * more reviewer is assigned, once per application. With nobody free, the application is
 * flagged for admins instead.
 */

export type Disagreement = { totals: number[]; threshold: number };
export type ExtraReviewOutcome =
  | { requested: false }
  | { requested: true; reviewerId: string | null };

/**
 * Active pool members who are not conflicted, not assigned and have not reviewed it, least
 * loaded first (fewest open assignments), then the one assigned longest ago, then by id.
 * The pool rows are locked (PostgreSQL) as the round-robin does, so two requests take turns.
 */
async function leastLoadedEligible(
  tx: SQL,
  db: Db,
  application: Application,
): Promise<string | null> {
  const pool = await lockedPool(tx, db, application.program.id);
  const candidates: { id: string; load: number; last: string }[] = [];
  for (const member of pool) {
    if (!toBool(member.active)) continue;
    const id = member.reviewer_id;
    if (await isConflicted(tx, application.id, id)) continue;
    const [taken] = await tx`SELECT
        (SELECT count(*) FROM review_assignments WHERE application_id = ${application.id}
          AND reviewer_id = ${id})
        + (SELECT count(*) FROM reviews WHERE application_id = ${application.id}
          AND reviewer_id = ${id}) AS n`;
    if (toInt(taken?.n ?? 0) > 0) continue;
    const [open] = await tx`SELECT count(*) AS n FROM review_assignments ra
      JOIN applications a ON a.id = ra.application_id
      WHERE ra.reviewer_id = ${id} AND a.status IN ('submitted', 'under_review')`;
    const last = member.last_assigned_at;
    candidates.push({
      id,
      load: toInt(open?.n ?? 0),
      last: last === null || last === undefined ? "" : new Date(last as string).toISOString(),
    });
  }
  candidates.sort(
    (a, b) => a.load - b.load || a.last.localeCompare(b.last) || a.id.localeCompare(b.id),
  );
  return candidates[0]?.id ?? null;
}

/**
 * Called in the transaction that saved a review. Does nothing below two totals, within the
 * threshold, or when the application already had its extra review (the claim row's primary
 * key: a concurrent second save waits on it, then finds it taken).
 */
export async function requestExtraReview(
  tx: SQL,
  db: Db,
  origin: Origin & { actor: User },
  application: Application,
  disagreement: Disagreement,
  at: string,
): Promise<ExtraReviewOutcome> {
  const { totals, threshold } = disagreement;
  if (threshold <= 0 || totals.length < 2) return { requested: false };
  const low = Math.min(...totals);
  const high = Math.max(...totals);
  // Rounded as the totals are, so 4.1 − 2.6 is 1.5 and not 1.4999999999999996.
  const spread = Math.round((high - low) * 100) / 100;
  if (spread <= threshold) return { requested: false };
  const claimed = await tx`INSERT INTO review_extra_requests ${tx({
    application_id: application.id,
    reviewer_id: null,
    low_total: low,
    high_total: high,
    threshold,
    created_at: at,
  })} ON CONFLICT (application_id) DO NOTHING`;
  if (claimed.count !== 1) return { requested: false };
  const chosen = await leastLoadedEligible(tx, db, application);
  const details = { low, high, spread, threshold, automatic: true };
  if (!chosen) {
    await recordAudit(
      tx,
      origin,
      { action: "review.extra_flagged", applicationId: application.id, details },
      at,
    );
    return { requested: true, reviewerId: null };
  }
  // The column needs an account: the reviewer whose save set it off (the audit says so).
  await takeAssignment(tx, application, chosen, origin.actor.id, at);
  await tx`UPDATE review_extra_requests SET reviewer_id = ${chosen}, resolved_at = ${at}
    WHERE application_id = ${application.id}`;
  await notifyReviewer(tx, chosen, application, at);
  await recordAudit(
    tx,
    origin,
    {
      action: "review.extra_requested",
      applicationId: application.id,
      subject: { type: "user", id: chosen },
      details,
    },
    at,
  );
  return { requested: true, reviewerId: chosen };
}
