import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import { AssignBody, Assigned, AssignmentParams } from "./model.ts";
import { type AssignmentsDeps, assignReviewer, unassignReviewer } from "./service.ts";

type Deps = AssignmentsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

/** An application's reviewers, assigned and unassigned by admins. */
export const assignments = (deps: Deps) =>
  new Elysia({ name: "assignments", prefix: "/api/v1/applications/:id/assignments" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/",
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
    .delete(
      "/:reviewerId/",
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
    );
