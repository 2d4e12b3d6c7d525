import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toInt, toIso } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { problem } from "../../problems.ts";
import { isConflicted, requestExtraReview } from "../assignments/service.ts";
import { interviewSummary } from "../interviews/service.ts";
import { findReviewSettings } from "../review-settings/service.ts";
import { assertScores, findRubric, weightedTotal } from "../rubric/service.ts";
import type { User } from "../users/model.ts";
import type { Origin } from "../workflow/model.ts";
import { loadVisible, recordAudit } from "../workflow/service.ts";
import { type ApplicationReviews, RECOMMENDATIONS, type Review, type ReviewBody } from "./model.ts";

/** `defaultThreshold`: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD (0: off unless the program sets one). */
export type ReviewsDeps = { db: Db; now: () => number; defaultThreshold: number };

type StaffOrigin = Origin & { actor: User };

type ReviewRow = {
  id: string;
  application_id: string;
  reviewer_id: string;
  reviewer_email: string;
  reviewer_name: string;
  scores: string;
  recommendation: Review["recommendation"];
  comment: string;
  conflicted: unknown;
  created_at: unknown;
  updated_at: unknown;
};

const person = (id: string, email: string, fullName: string) => ({ id, email, fullName });

async function reviewsOf(sql: SQL, applicationId: string): Promise<ReviewRow[]> {
  return (await sql`SELECT r.*, u.email AS reviewer_email, u.full_name AS reviewer_name,
      (SELECT count(*) FROM review_conflicts c
        WHERE c.application_id = r.application_id AND c.reviewer_id = r.reviewer_id) AS conflicted
    FROM reviews r JOIN users u ON u.id = r.reviewer_id
    WHERE r.application_id = ${applicationId} ORDER BY r.created_at, r.id`) as ReviewRow[];
}

/**
 * A reviewer scores the application: only when assigned to it (403 NOT_ASSIGNED), while it is
 * under review (409 REVIEWS_CLOSED), against the program's rubric (409 RUBRIC_MISSING). Saving
 * again replaces their review.
 */
export function saveReview(
  deps: ReviewsDeps,
  origin: StaffOrigin,
  applicationId: string,
  body: ReviewBody,
): Promise<Review> {
  const at = isoAt(deps.now());
  const reviewer = origin.actor;
  return deps.db.transaction(async (tx) => {
    const application = await loadVisible(tx, applicationId, reviewer);
    const [assigned] = await tx`SELECT 1 AS yes FROM review_assignments
      WHERE application_id = ${applicationId} AND reviewer_id = ${reviewer.id}`;
    if (!assigned) {
      throw problem("NOT_ASSIGNED", { detail: "Only reviewers assigned to it review it" });
    }
    if (application.status !== "under_review") {
      throw problem("REVIEWS_CLOSED", {
        detail: `The application is ${application.status}; reviews are taken while under_review`,
      });
    }
    const rubric = await findRubric(tx, application.program.id);
    if (!rubric) {
      throw problem("RUBRIC_MISSING", { detail: "An admin must set the program's rubric first" });
    }
    assertScores(rubric, body.scores);
    const comment = body.comment?.trim() ?? "";
    const scores = JSON.stringify(body.scores);
    await tx`INSERT INTO reviews ${tx({
      id: newId(),
      application_id: applicationId,
      reviewer_id: reviewer.id,
      scores,
      recommendation: body.recommendation,
      comment,
      created_at: at,
      updated_at: at,
    })} ON CONFLICT (application_id, reviewer_id) DO UPDATE SET scores = ${scores},
      recommendation = ${body.recommendation}, comment = ${comment}, updated_at = ${at}`;
    const total = weightedTotal(rubric, body.scores);
    await recordAudit(
      tx,
      origin,
      {
        action: "review.saved",
        applicationId,
        details: { recommendation: body.recommendation, weightedTotal: total },
      },
      at,
    );
    const rows = await reviewsOf(tx, applicationId);
    const counted = rows.filter((row) => toInt(row.conflicted) === 0);
    const settings = await findReviewSettings(tx, application.program.id, deps.defaultThreshold);
    await requestExtraReview(
      tx,
      deps.db,
      origin,
      application,
      {
        totals: counted.map((row) => weightedTotal(rubric, JSON.parse(row.scores))),
        threshold: settings.effectiveThreshold ?? 0,
      },
      at,
    );
    const mine = rows.find((r) => r.reviewer_id === reviewer.id);
    if (!mine) throw new Error("review row vanished");
    return toReview(mine, total);
  });
}

const toReview = (row: ReviewRow, total: number): Review => ({
  id: row.id,
  applicationId: row.application_id,
  reviewer: person(row.reviewer_id, row.reviewer_email, row.reviewer_name),
  scores: JSON.parse(row.scores) as Record<string, number>,
  weightedTotal: total,
  recommendation: row.recommendation,
  comment: row.comment,
  excluded: toInt(row.conflicted) > 0,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/** Everything staff need to decide: rubric, assignments, conflicts, reviews and totals. */
export function getReviews(
  deps: ReviewsDeps,
  viewer: User,
  applicationId: string,
): Promise<ApplicationReviews> {
  return deps.db.run(async (sql) => {
    const application = await loadVisible(sql, applicationId, viewer);
    if (await isConflicted(sql, applicationId, viewer.id)) {
      throw problem("CONFLICT_OF_INTEREST", {
        detail: "You declared a conflict of interest with this application",
      });
    }
    const rubric = await findRubric(sql, application.program.id);
    const rows = await reviewsOf(sql, applicationId);
    const reviews = rows.map((row) =>
      toReview(row, rubric ? weightedTotal(rubric, JSON.parse(row.scores)) : 0),
    );
    const counted = reviews.filter((review) => !review.excluded);
    const assignments = (await sql`SELECT ra.reviewer_id, ra.assigned_at, u.email, u.full_name
      FROM review_assignments ra JOIN users u ON u.id = ra.reviewer_id
      WHERE ra.application_id = ${applicationId} ORDER BY ra.assigned_at, ra.reviewer_id`) as {
      reviewer_id: string;
      assigned_at: unknown;
      email: string;
      full_name: string;
    }[];
    const conflicts = (await sql`SELECT c.reviewer_id, c.reason, c.created_at, u.email, u.full_name
      FROM review_conflicts c JOIN users u ON u.id = c.reviewer_id
      WHERE c.application_id = ${applicationId} ORDER BY c.created_at`) as {
      reviewer_id: string;
      reason: string;
      created_at: unknown;
      email: string;
      full_name: string;
    }[];
    const recommendations = Object.fromEntries(
      RECOMMENDATIONS.map((r) => [
        r,
        counted.filter((review) => review.recommendation === r).length,
      ]),
    ) as ApplicationReviews["recommendations"];
    return {
      applicationId,
      rubric,
      assignments: assignments.map((a) => ({
        reviewer: person(a.reviewer_id, a.email, a.full_name),
        assignedAt: toIso(a.assigned_at),
        reviewed: reviews.some((r) => r.reviewer.id === a.reviewer_id),
      })),
      conflicts: conflicts.map((c) => ({
        reviewer: person(c.reviewer_id, c.email, c.full_name),
        reason: c.reason,
        at: toIso(c.created_at),
      })),
      reviews,
      weightedTotal: counted.length
        ? Math.round((counted.reduce((s, r) => s + r.weightedTotal, 0) / counted.length) * 100) /
          100
        : null,
      recommendations,
      // Beside the weighted total, on the same scale, not folded into it (docs/decisions.md).
      interview: await interviewSummary(sql, applicationId),
    };
  });
}
