import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { ApplicationParams, IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  ApplicationReviews,
  AssignBody,
  Assigned,
  AssignmentParams,
  BulkAssignBody,
  BulkAssigned,
  Calibration,
  CalibrationQuery,
  Conflict,
  ConflictBody,
  ExtraReviews,
  ExtraReviewsQuery,
  QueuePage,
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
import {
  assignReviewer,
  bulkAssign,
  declareConflict,
  getCalibration,
  getRanking,
  getReviewSettings,
  getReviews,
  getRubric,
  listExtraReviews,
  type ReviewDeps,
  reviewerWorkload,
  reviewQueue,
  saveReview,
  setReviewSettings,
  setRubric,
  unassignReviewer,
} from "./service.ts";

type Deps = ReviewDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];
const application = "/applications/:id";
const program = "/staff/programs/:id";

/**
 * The review of applications: a program's rubric and review settings (admins), an
 * application's reviewers, conflicts of interest and reviews, a reviewer's queue, and how
 * reviewers score against each other (calibration, admins).
 */
export const review = (deps: Deps) =>
  new Elysia({ name: "review", prefix: "/api/v1" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      `${application}/assignments/`,
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return assignReviewer(deps, originOf(actor, clientIp), params.id, body?.reviewerId);
      },
      {
        auth: ["admin"],
        params: ApplicationParams,
        ...jsonBody(AssignBody),
        response: {
          201: Assigned,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "REVIEWER_NOT_IN_POOL",
            "REVIEWER_CONFLICTED",
            "ALREADY_ASSIGNED",
            "NO_REVIEWER_AVAILABLE",
            "ASSIGNMENT_CLOSED",
          ),
        },
        detail: {
          tags,
          summary: "Assign a reviewer (admins): the one named, or round-robin in the program",
          description:
            "A submitted application moves to under_review (an internal status: the applicant is not emailed). 409 REVIEWER_NOT_IN_POOL, REVIEWER_CONFLICTED, ALREADY_ASSIGNED, NO_REVIEWER_AVAILABLE, ASSIGNMENT_CLOSED.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/staff/assignments/bulk/",
      ({ actor, clientIp, body }) => bulkAssign(deps, originOf(actor, clientIp), body),
      {
        auth: ["admin"],
        ...jsonBody(BulkAssignBody),
        response: { 200: BulkAssigned, ...problems("FORBIDDEN", "BULK_REFUSED") },
        detail: {
          tags,
          summary:
            "Assign one reviewer, or round-robin, to many applications (admins): all or none",
          description:
            "Each assignment as a single one (pool, conflicts, already assigned, status; a submitted application moves to under_review). If any application cannot take it, nothing changes and 409 BULK_REFUSED lists `refusals: [{applicationId, status, code, detail}]`.",
          security: writeSecurity,
        },
      },
    )
    .get("/staff/reviewers/workload/", ({ query }) => reviewerWorkload(deps, query), {
      auth: ["admin"],
      query: WorkloadQuery,
      response: { 200: Workload, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Each reviewer's open assignments and how many they have reviewed (admins)",
        security: readSecurity,
      },
    })
    .delete(
      `${application}/assignments/:reviewerId/`,
      async ({ actor, clientIp, params, set }) => {
        await unassignReviewer(deps, originOf(actor, clientIp), params.id, params.reviewerId);
        set.status = 204;
      },
      {
        auth: ["admin"],
        params: AssignmentParams,
        response: problems("FORBIDDEN", "NOT_FOUND"),
        detail: {
          tags,
          summary: "Unassign a reviewer (admins)",
          security: writeSecurity,
          responses: { 204: { description: "Unassigned; a review already written stays" } },
        },
      },
    )
    .get(`${application}/reviews/`, ({ actor, params }) => getReviews(deps, actor, params.id), {
      auth: STAFF,
      params: ApplicationParams,
      response: {
        200: ApplicationReviews,
        ...problems("FORBIDDEN", "NOT_FOUND", "CONFLICT_OF_INTEREST"),
      },
      detail: {
        tags,
        summary: "All reviews of an application with the weighted total (staff)",
        description: "403 CONFLICT_OF_INTEREST for a reviewer who declared one.",
        security: readSecurity,
      },
    })
    .put(
      `${application}/reviews/mine/`,
      ({ actor, clientIp, params, body }) =>
        saveReview(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ReviewBody),
        response: {
          200: Review,
          ...problems("FORBIDDEN", "NOT_FOUND", "NOT_ASSIGNED", "REVIEWS_CLOSED", "RUBRIC_MISSING"),
        },
        detail: {
          tags,
          summary: "Score, recommend and comment (the assigned reviewer); again to revise",
          description:
            "403 NOT_ASSIGNED, 409 REVIEWS_CLOSED (not under_review), 409 RUBRIC_MISSING, 422 for scores that do not match the rubric.",
          security: writeSecurity,
        },
      },
    )
    .get(`${program}/review-settings/`, ({ params }) => getReviewSettings(deps, params.id), {
      auth: ["admin"],
      params: IdParams,
      response: { 200: ReviewSettings, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags,
        summary: "A program's review settings: blind review, disagreement threshold (admins)",
        security: readSecurity,
      },
    })
    .put(
      `${program}/review-settings/`,
      ({ actor, clientIp, params, body }) =>
        setReviewSettings(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(ReviewSettingsBody),
        response: { 200: ReviewSettings, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Set a program's review settings (admins)",
          description:
            "Blind review takes effect at once on every response a reviewer gets about the program's applications. The threshold applies to reviews saved from now on.",
          security: writeSecurity,
        },
      },
    )
    .get("/staff/calibration/", ({ query }) => getCalibration(deps, query), {
      auth: ["admin"],
      query: CalibrationQuery,
      response: { 200: Calibration, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_MISSING") },
      detail: {
        tags,
        summary: "Each reviewer's mean and spread of weighted totals against the panel (admins)",
        description:
          "Per reviewer in the program (and intake): count, mean and population standard deviation of their weighted totals; the other reviewers' on the same applications; the difference of means. Reviews of a reviewer who declared a conflict since are left out. 409 RUBRIC_MISSING.",
        security: readSecurity,
      },
    })
    .get("/staff/calibration/ranking/", ({ query }) => getRanking(deps, query), {
      auth: ["admin"],
      query: RankingQuery,
      response: { 200: Ranking, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_MISSING") },
      detail: {
        tags,
        summary: "Reviewed applications ranked by their mean total, raw or normalised (admins)",
        description:
          "`normalised=true`: each total is first rescaled by its reviewer's mean and spread onto the whole panel's (z-score), see docs/admissions.md. Stored scores never change; `rawScore` is always shown.",
        security: readSecurity,
      },
    })
    .get("/staff/calibration/extra-reviews/", ({ query }) => listExtraReviews(deps, query), {
      auth: ["admin"],
      query: ExtraReviewsQuery,
      response: { 200: ExtraReviews, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Automatic extra reviews, newest first (the latest 500); flagged ones (admins)",
        security: readSecurity,
      },
    })
    .post(
      `${application}/conflict-of-interest/`,
      ({ actor, clientIp, params, body }) =>
        declareConflict(deps, originOf(actor, clientIp), params.id, body.reason),
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ConflictBody),
        response: { 200: Conflict, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Declare a conflict of interest: removes you from the application for good",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/staff/queue/",
      ({ actor, query, request }) => reviewQueue(deps, actor, query, pageOf(query), request.url),
      {
        auth: STAFF,
        query: QueueQuery,
        response: { 200: QueuePage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Your review queue: applications assigned to you awaiting a decision",
          security: readSecurity,
        },
      },
    )
    .get(`${program}/rubric/`, ({ params }) => getRubric(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: Rubric, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: { tags, summary: "A program's rubric (staff)", security: readSecurity },
    })
    .put(
      `${program}/rubric/`,
      ({ actor, clientIp, params, body }) =>
        setRubric(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(RubricBody),
        response: { 200: Rubric, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_IN_USE") },
        detail: {
          tags,
          summary: "Set a program's rubric (admins): weighted criteria on one scale",
          description: "409 RUBRIC_IN_USE once an application of the program has been scored.",
          security: writeSecurity,
        },
      },
    );
