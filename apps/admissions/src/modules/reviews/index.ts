import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { ApplicationReviews, Review, ReviewBody } from "./model.ts";
import { getReviews, type ReviewsDeps, saveReview } from "./service.ts";

type Deps = ReviewsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

/** An application's reviews: every one with the totals for staff, and the reviewer's own. */
export const reviews = (deps: Deps) =>
  new Elysia({ name: "reviews", prefix: "/api/v1/applications/:id/reviews" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ actor, params }) => getReviews(deps, actor, params.id), {
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
      "/mine/",
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
    );
