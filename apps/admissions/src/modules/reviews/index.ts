import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia, t } from "elysia";
import {
  jsonBody,
  problemResponse,
  problemResponses,
  readSecurity,
  writeSecurity,
} from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { Id, Timestamp } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  ApplicationParams,
  ApplicationReviews,
  AssignBody,
  AssignmentParams,
  ConflictBody,
  QueuePage,
  QueueQuery,
  Review,
  ReviewBody,
  Rubric,
  RubricBody,
} from "./model.ts";
import {
  assignReviewer,
  declareConflict,
  getReviews,
  getRubric,
  type ReviewsDeps,
  reviewQueue,
  saveReview,
  setRubric,
  unassignReviewer,
} from "./service.ts";

type Deps = ReviewsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

const Assigned = t.Object({
  reviewerId: Id,
  assignedAt: Timestamp,
});
const Conflict = t.Object({
  applicationId: Id,
  reviewerId: Id,
  reason: t.String(),
  at: Timestamp,
});

/** Rubrics, reviewer assignments, reviews, conflicts of interest and the reviewer's queue. */
export const reviews = (deps: Deps) => {
  const perApplication = new Elysia({ name: "reviews", prefix: "/api/v1/applications" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/:id/assignments/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return assignReviewer(deps, originOf(actor, clientIp), params.id, body?.reviewerId);
      },
      {
        auth: ["admin"],
        params: ApplicationParams,
        ...jsonBody(AssignBody),
        response: { 201: Assigned, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Assign a reviewer (admins): the one named, or round-robin in the program",
          description:
            "A submitted application moves to under_review (an internal status: the applicant is not emailed). 409 REVIEWER_NOT_IN_POOL, REVIEWER_CONFLICTED, ALREADY_ASSIGNED, NO_REVIEWER_AVAILABLE, ASSIGNMENT_CLOSED.",
          security: writeSecurity,
        },
      },
    )
    .delete(
      "/:id/assignments/:reviewerId/",
      async ({ actor, clientIp, params, set }) => {
        await unassignReviewer(deps, originOf(actor, clientIp), params.id, params.reviewerId);
        set.status = 204;
      },
      {
        auth: ["admin"],
        params: AssignmentParams,
        detail: {
          tags,
          summary: "Unassign a reviewer (admins)",
          security: writeSecurity,
          responses: {
            204: { description: "Unassigned; a review already written stays" },
            401: problemResponse("No valid credential"),
            403: problemResponse("Not an admin"),
            404: problemResponse("No such application or assignment"),
          },
        },
      },
    )
    .get("/:id/reviews/", ({ actor, params }) => getReviews(deps, actor, params.id), {
      auth: STAFF,
      params: ApplicationParams,
      response: { 200: ApplicationReviews, ...problemResponses(401, 403, 404) },
      detail: {
        tags,
        summary: "All reviews of an application with the weighted total (staff)",
        description: "403 CONFLICT_OF_INTEREST for a reviewer who declared one.",
        security: readSecurity,
      },
    })
    .put(
      "/:id/reviews/mine/",
      ({ actor, clientIp, params, body }) =>
        saveReview(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ReviewBody),
        response: { 200: Review, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Score, recommend and comment (the assigned reviewer); again to revise",
          description:
            "403 NOT_ASSIGNED, 409 REVIEWS_CLOSED (not under_review), 409 RUBRIC_MISSING, 422 for scores that do not match the rubric.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:id/conflict-of-interest/",
      ({ actor, clientIp, params, body }) =>
        declareConflict(deps, originOf(actor, clientIp), params.id, body.reason),
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ConflictBody),
        response: { 200: Conflict, ...problemResponses(400, 401, 403, 404, 415, 422) },
        detail: {
          tags,
          summary: "Declare a conflict of interest: removes you from the application for good",
          security: writeSecurity,
        },
      },
    );
  const staffSide = new Elysia({ name: "review-staff", prefix: "/api/v1/staff" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get(
      "/queue/",
      ({ actor, query, request }) => reviewQueue(deps, actor, query, pageOf(query), request.url),
      {
        auth: STAFF,
        query: QueueQuery,
        response: { 200: QueuePage, ...problemResponses(401, 403, 422) },
        detail: {
          tags,
          summary: "Your review queue: applications assigned to you awaiting a decision",
          security: readSecurity,
        },
      },
    )
    .get("/programs/:id/rubric/", ({ params }) => getRubric(deps.db, params.id), {
      auth: STAFF,
      params: ApplicationParams,
      response: { 200: Rubric, ...problemResponses(401, 403, 404) },
      detail: { tags, summary: "A program's rubric (staff)", security: readSecurity },
    })
    .put(
      "/programs/:id/rubric/",
      ({ actor, clientIp, params, body }) =>
        setRubric(deps.db, originOf(actor, clientIp), params.id, body, deps.now()),
      {
        auth: ["admin"],
        params: ApplicationParams,
        ...jsonBody(RubricBody),
        response: { 200: Rubric, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Set a program's rubric (admins): weighted criteria on one scale",
          description: "409 RUBRIC_IN_USE once an application of the program has been scored.",
          security: writeSecurity,
        },
      },
    );
  return new Elysia({ name: "reviews-all" }).use(perApplication).use(staffSide);
};
