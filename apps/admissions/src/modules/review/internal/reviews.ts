import type { SQL } from "bun";
import { toInt, toIso } from "../../../db/dialect.ts";
import { newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { Application } from "../../workflow/model.ts";
import {
  type ApplicationReviews,
  type InterviewSummary,
  RECOMMENDATIONS,
  type Review,
  type ReviewBody,
  type Rubric,
} from "../model.ts";
import { findRubric, weightedTotal } from "./rubric.ts";

/* The reviews of an application as rows, and what staff read of them. */

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

export async function reviewsOf(sql: SQL, applicationId: string): Promise<ReviewRow[]> {
  return (await sql`SELECT r.*, u.email AS reviewer_email, u.full_name AS reviewer_name,
      (SELECT count(*) FROM review_conflicts c
        WHERE c.application_id = r.application_id AND c.reviewer_id = r.reviewer_id) AS conflicted
    FROM reviews r JOIN users u ON u.id = r.reviewer_id
    WHERE r.application_id = ${applicationId} ORDER BY r.created_at, r.id`) as ReviewRow[];
}

/** Whether the review counts: not once its reviewer declared a conflict of interest. */
export const counts = (row: ReviewRow) => toInt(row.conflicted) === 0;

export const toReview = (row: ReviewRow, total: number): Review => ({
  id: row.id,
  applicationId: row.application_id,
  reviewer: person(row.reviewer_id, row.reviewer_email, row.reviewer_name),
  scores: JSON.parse(row.scores) as Record<string, number>,
  weightedTotal: total,
  recommendation: row.recommendation,
  comment: row.comment,
  excluded: !counts(row),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/**
 * Who may review, and against what: the reviewer assigned to the application (403
 * NOT_ASSIGNED), while it is under review (409 REVIEWS_CLOSED), on the program's rubric (409
 * RUBRIC_MISSING), which is returned.
 */
export async function reviewableBy(
  tx: SQL,
  application: Application,
  reviewerId: string,
): Promise<Rubric> {
  const [assigned] = await tx`SELECT 1 AS yes FROM review_assignments
    WHERE application_id = ${application.id} AND reviewer_id = ${reviewerId}`;
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
  return rubric;
}

/**
 * The reviewer's review of the application, written or replaced, with its weighted total kept
 * beside the scores (the office's queue filters and sorts by it in SQL).
 */
export async function writeReview(
  tx: SQL,
  applicationId: string,
  reviewerId: string,
  body: ReviewBody & { weightedTotal: number },
  at: string,
): Promise<void> {
  const comment = body.comment?.trim() ?? "";
  const scores = JSON.stringify(body.scores);
  await tx`INSERT INTO reviews ${tx({
    id: newId(),
    application_id: applicationId,
    reviewer_id: reviewerId,
    scores,
    recommendation: body.recommendation,
    comment,
    weighted_total: body.weightedTotal,
    created_at: at,
    updated_at: at,
  })} ON CONFLICT (application_id, reviewer_id) DO UPDATE SET scores = ${scores},
    recommendation = ${body.recommendation}, comment = ${comment},
    weighted_total = ${body.weightedTotal}, updated_at = ${at}`;
}

/** The mean of the panel scores of an application's interviews not cancelled. */
async function interviewSummaryOf(sql: SQL, applicationId: string): Promise<InterviewSummary> {
  const [row] = (await sql`SELECT count(s.score) AS n, avg(s.score) AS mean
    FROM interview_scores s JOIN interviews iv ON iv.id = s.interview_id
    WHERE iv.application_id = ${applicationId} AND iv.status <> 'cancelled'`) as {
    n: unknown;
    mean: unknown;
  }[];
  const scores = toInt(row?.n ?? 0);
  return {
    score: scores ? Math.round(Number(row?.mean) * 100) / 100 : null,
    scores,
  };
}

/** Everything staff need to decide: rubric, assignments, conflicts, reviews and totals (the
 * program's settings and the extra review are added by the service). */
export async function applicationReviews(
  sql: SQL,
  applicationId: string,
  rubric: Rubric | null,
): Promise<Omit<ApplicationReviews, "blindReview" | "extraReview">> {
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
    RECOMMENDATIONS.map((r) => [r, counted.filter((review) => review.recommendation === r).length]),
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
      ? Math.round((counted.reduce((s, r) => s + r.weightedTotal, 0) / counted.length) * 100) / 100
      : null,
    recommendations,
    // Beside the weighted total, on the same scale, not folded into it (docs/decisions.md).
    interview: await interviewSummaryOf(sql, applicationId),
  };
}
