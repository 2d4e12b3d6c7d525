import { HttpProblem } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { Refusal } from "../staff/model.ts";
import type { User } from "../users/model.ts";
import { type MoveDeps, type Origin, SYSTEM_NOTES } from "../workflow/model.ts";
import {
  blinderFor,
  loadVisible,
  moveApplication,
  recordAudit,
  toApplication,
} from "../workflow/service.ts";
import {
  assertAssignable,
  chooseReviewer,
  notifyReviewer,
  takeAssignment,
} from "./internal/assignments.ts";
import {
  calibrationOf,
  extraReviewOf,
  extraReviewsIn,
  rankingOf,
  reviewsIn,
  scopeOf,
} from "./internal/calibration.ts";
import { isConflicted, recordConflict } from "./internal/conflict-of-interest.ts";
import { requestExtraReview } from "./internal/extra-review.ts";
import { assignedTo } from "./internal/queue.ts";
import { findReviewSettings } from "./internal/review-settings.ts";
import {
  applicationReviews,
  counts,
  reviewableBy,
  reviewsOf,
  toReview,
  writeReview,
} from "./internal/reviews.ts";
import {
  assertRubricBody,
  assertScores,
  findRubric,
  saveRubric,
  weightedTotal,
} from "./internal/rubric.ts";
import { workloadOf } from "./internal/workload.ts";
import type {
  ApplicationReviews,
  BulkAssignBody,
  BulkAssigned,
  Calibration,
  CalibrationQuery,
  ExtraReviews,
  ExtraReviewsQuery,
  QueueItem,
  QueueQuery,
  Ranking,
  RankingQuery,
  Review,
  ReviewBody,
  ReviewSettings,
  ReviewSettingsBody,
  Rubric,
  RubricBody,
  Workload,
  WorkloadQuery,
} from "./model.ts";

/*
 * The review of applications, one feature: a program's rubric and review settings, who reviews
 * an application (assigned by hand or round-robin, barred by a conflict of interest), the
 * reviews and their totals, a reviewer's queue, and how reviewers compare (calibration).
 */

/** `defaultThreshold`: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD (0: off unless the program sets one). */
export type ReviewDeps = { db: Db; now: () => number; move: MoveDeps; defaultThreshold: number };

type StaffOrigin = Origin & { actor: User };

/** Interviews score on the rubric's scale, barred by the same conflicts (modules/interviews). */
export { findRubric, isConflicted };

const conflictOfInterest = () =>
  problem("CONFLICT_OF_INTEREST", {
    detail: "You declared a conflict of interest with this application",
  });

export const getRubric = (deps: ReviewDeps, programId: string) =>
  deps.db.run(async (sql) => {
    const rubric = await findRubric(sql, programId);
    if (!rubric) throw notFound("Rubric");
    return rubric;
  });

/** Sets a program's rubric (admins); fixed once an application of the program is scored. */
export function setRubric(
  deps: ReviewDeps,
  origin: StaffOrigin,
  programId: string,
  body: RubricBody,
): Promise<Rubric> {
  assertRubricBody(body);
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const rubric = await saveRubric(tx, programId, body, origin.actor.id, at);
    await recordAudit(
      tx,
      origin,
      { action: "rubric.saved", subject: { type: "program", id: programId }, details: { ...body } },
      at,
    );
    return rubric;
  });
}

export const getReviewSettings = (deps: ReviewDeps, programId: string) =>
  deps.db.run((sql) => findReviewSettings(sql, programId, deps.defaultThreshold));

/** Admins set both at once; audited with the values before and after. */
export function setReviewSettings(
  deps: ReviewDeps,
  origin: Origin,
  programId: string,
  body: ReviewSettingsBody,
): Promise<ReviewSettings> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const before = await findReviewSettings(tx, programId, deps.defaultThreshold);
    await tx`UPDATE programs SET blind_review = ${body.blindReview},
      review_disagreement_threshold = ${body.disagreementThreshold}
      WHERE id = ${programId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "program.review_settings_set",
        subject: { type: "program", id: programId },
        details: {
          before: {
            blindReview: before.blindReview,
            disagreementThreshold: before.disagreementThreshold,
          },
          after: { ...body },
        },
      },
      at,
    );
    return findReviewSettings(tx, programId, deps.defaultThreshold);
  });
}

/**
 * One assignment in the caller's transaction: the reviewer named or round-robin, the
 * reviewer's email, an open extra-review flag answered, the audit entry; a submitted
 * application moves to under_review with it, through the lifecycle table.
 */
async function assignOne(
  tx: SQL,
  deps: ReviewDeps,
  origin: StaffOrigin,
  applicationId: string,
  reviewerId: string | undefined,
  batchId?: string,
): Promise<{ reviewerId: string; assignedAt: string }> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const application = await loadVisible(tx, applicationId, origin.actor);
  assertAssignable(application);
  const programId = application.program.id;
  const chosen = await chooseReviewer(tx, deps.db, applicationId, programId, reviewerId);
  await takeAssignment(tx, application, chosen, origin.actor.id, at);
  await notifyReviewer(tx, chosen, application, at);
  // An application flagged for an extra review nobody was free for: this answers it.
  await tx`UPDATE review_extra_requests SET reviewer_id = ${chosen}, resolved_at = ${at}
    WHERE application_id = ${applicationId} AND resolved_at IS NULL`;
  await recordAudit(
    tx,
    origin,
    {
      action: "application.reviewer_assigned",
      applicationId,
      subject: { type: "user", id: chosen },
      details: {
        mode: reviewerId === undefined ? "round_robin" : "manual",
        ...(batchId ? { batchId } : {}),
      },
    },
    at,
  );
  if (application.status === "submitted") {
    const request = {
      to: "under_review" as const,
      reason: SYSTEM_NOTES.reviewerAssigned,
      preconditions: [],
      via: "assignment" as const,
    };
    await moveApplication(tx, deps.move, origin, applicationId, request, nowMs);
  }
  return { reviewerId: chosen, assignedAt: at };
}

/** Assigns a reviewer (by hand or round-robin) to one application. */
export const assignReviewer = (
  deps: ReviewDeps,
  origin: StaffOrigin,
  applicationId: string,
  reviewerId: string | undefined,
): Promise<{ reviewerId: string; assignedAt: string }> =>
  deps.db.transaction((tx) => assignOne(tx, deps, origin, applicationId, reviewerId));

/**
 * One reviewer (or round-robin for each) for many applications, in one transaction, all or
 * none, each through the same path as a single assignment. Refusals are collected, not stopped
 * at: if any application cannot take the reviewer, nothing is assigned and 409 BULK_REFUSED
 * lists each with its own code and reason. Ids in one order, so overlapping batches lock alike.
 */
export function bulkAssign(
  deps: ReviewDeps,
  origin: StaffOrigin,
  body: BulkAssignBody,
): Promise<BulkAssigned> {
  const batchId = newId();
  const ids = [...body.applicationIds].sort();
  return deps.db.transaction(async (tx) => {
    const assigned: BulkAssigned["assignments"] = [];
    const refusals: Refusal[] = [];
    for (const id of ids) {
      try {
        const made = await assignOne(tx, deps, origin, id, body.reviewerId, batchId);
        assigned.push({ applicationId: id, ...made });
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw error;
        refusals.push({
          applicationId: id,
          status: error.status,
          code: error.code,
          detail: error.message,
        });
      }
    }
    if (refusals.length > 0) {
      throw problem("BULK_REFUSED", {
        detail: `${refusals.length} of ${ids.length} applications cannot take the reviewer; nothing was changed`,
        extensions: { refusals },
      });
    }
    return { batchId, assigned: assigned.length, assignments: assigned };
  });
}

/** Each reviewer's open work: assignments awaiting a decision, and how many they have reviewed. */
export const reviewerWorkload = (deps: ReviewDeps, query: WorkloadQuery): Promise<Workload> =>
  deps.db.run((sql) => workloadOf(sql, query));

export function unassignReviewer(
  deps: ReviewDeps,
  origin: StaffOrigin,
  applicationId: string,
  reviewerId: string,
): Promise<void> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    await loadVisible(tx, applicationId, origin.actor);
    const removed = await tx`DELETE FROM review_assignments
      WHERE application_id = ${applicationId} AND reviewer_id = ${reviewerId}`;
    if (removed.count !== 1) throw notFound("Assignment");
    await recordAudit(
      tx,
      origin,
      {
        action: "application.reviewer_unassigned",
        applicationId,
        subject: { type: "user", id: reviewerId },
      },
      at,
    );
  });
}

/**
 * A staff member declares a conflict of interest: they are unassigned, cannot be assigned
 * again, their review (if any) no longer counts, and they no longer see the reviews.
 */
export function declareConflict(
  deps: ReviewDeps,
  origin: StaffOrigin,
  applicationId: string,
  reason: string,
) {
  const at = isoAt(deps.now());
  const reviewer = origin.actor;
  return deps.db.transaction(async (tx) => {
    await loadVisible(tx, applicationId, reviewer);
    await recordConflict(tx, applicationId, reviewer.id, reason.trim(), at);
    await recordAudit(
      tx,
      origin,
      { action: "review.conflict_declared", applicationId, details: { reason: reason.trim() } },
      at,
    );
    return { applicationId, reviewerId: reviewer.id, reason: reason.trim(), at };
  });
}

/**
 * A reviewer scores the application: only when assigned to it (403 NOT_ASSIGNED), while it is
 * under review (409 REVIEWS_CLOSED), against the program's rubric (409 RUBRIC_MISSING). Saving
 * again replaces their review; totals too far apart ask for an extra review.
 */
export function saveReview(
  deps: ReviewDeps,
  origin: StaffOrigin,
  applicationId: string,
  body: ReviewBody,
): Promise<Review> {
  const at = isoAt(deps.now());
  const reviewer = origin.actor;
  return deps.db.transaction(async (tx) => {
    const application = await loadVisible(tx, applicationId, reviewer);
    const rubric = await reviewableBy(tx, application, reviewer.id);
    assertScores(rubric, body.scores);
    const total = weightedTotal(rubric, body.scores);
    await writeReview(tx, applicationId, reviewer.id, { ...body, weightedTotal: total }, at);
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
    const settings = await findReviewSettings(tx, application.program.id, deps.defaultThreshold);
    await requestExtraReview(
      tx,
      deps.db,
      origin,
      application,
      {
        totals: rows.filter(counts).map((row) => weightedTotal(rubric, JSON.parse(row.scores))),
        threshold: settings.effectiveThreshold ?? 0,
      },
      at,
    );
    const mine = rows.find((r) => r.reviewer_id === reviewer.id);
    if (!mine) throw new Error("review row vanished");
    return toReview(mine, total);
  });
}

/** Everything staff need to decide; 403 CONFLICT_OF_INTEREST for one who declared a conflict. */
export function getReviews(
  deps: ReviewDeps,
  viewer: User,
  applicationId: string,
): Promise<ApplicationReviews> {
  return deps.db.run(async (sql) => {
    const application = await loadVisible(sql, applicationId, viewer);
    if (await isConflicted(sql, applicationId, viewer.id)) throw conflictOfInterest();
    const programId = application.program.id;
    const settings = await findReviewSettings(sql, programId, deps.defaultThreshold);
    return {
      ...(await applicationReviews(sql, applicationId, await findRubric(sql, programId))),
      blindReview: settings.blindReview,
      extraReview: await extraReviewOf(sql, applicationId),
    };
  });
}

/** The reviewer's own queue: their assignments still awaiting a decision, oldest first. */
export const reviewQueue = (
  deps: ReviewDeps,
  reviewer: User,
  query: QueueQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<QueueItem>> =>
  deps.db.run(async (sql) => {
    const { total, items } = await assignedTo(sql, reviewer, query, page);
    const blind = await blinderFor(sql, reviewer);
    return toPage(
      requestUrl,
      page,
      total,
      items.map(({ row, ...rest }) => ({ application: blind(toApplication(row)), ...rest })),
    );
  });

/** Each reviewer's mean and spread against the panel's, in a program (and intake). */
export const getCalibration = (deps: ReviewDeps, query: CalibrationQuery): Promise<Calibration> =>
  deps.db.run(async (sql) => {
    const rubric = await scopeOf(sql, query);
    return calibrationOf(query, rubric, await reviewsIn(sql, query));
  });

/** The program's reviewed applications, best first, raw or normalised. */
export const getRanking = (deps: ReviewDeps, query: RankingQuery): Promise<Ranking> =>
  deps.db.run(async (sql) => {
    const rubric = await scopeOf(sql, query);
    return rankingOf(query, rubric, await reviewsIn(sql, query));
  });

export const listExtraReviews = (
  deps: ReviewDeps,
  query: ExtraReviewsQuery,
): Promise<ExtraReviews> => deps.db.run((sql) => extraReviewsIn(sql, query));
