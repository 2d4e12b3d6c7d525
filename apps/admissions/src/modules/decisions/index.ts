import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problemResponses, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { ApplicationPage, IdParams } from "../applications/model.ts";
import type { ApplicationsDeps } from "../applications/service.ts";
import { transition } from "../applications/service.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { Application } from "../workflow/model.ts";
import { decisionOf, etagOf, originOf, preconditionsOf } from "../workflow/service.ts";
import { DecisionBody, IntakeParams, PromoteBody, Seats, WaitlistQuery } from "./model.ts";
import {
  type DecisionsDeps,
  getSeats,
  listWaitlist,
  promoteFromWaitlist,
  STATUS_OF,
} from "./service.ts";

type Deps = DecisionsDeps & {
  applications: ApplicationsDeps;
  guard: AuthGuard;
  trustedProxies: TrustedProxies;
};
const tags = ["decisions"];

/** Admins decide; the seats and the waitlist of an intake, for staff. */
export const decisions = (deps: Deps) => {
  const decide = new Elysia({ name: "decisions", prefix: "/api/v1/applications" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/:id/decision/",
      async ({ actor, clientIp, params, body, headers, set }) => {
        const application = await transition(
          deps.applications,
          originOf(actor, clientIp),
          params.id,
          {
            to: STATUS_OF[body.decision],
            reason: body.reason ?? null,
            preconditions: preconditionsOf(headers["if-match"] ?? null, body.version),
            decision: decisionOf(body),
            via: "decision",
          },
        );
        set.headers.etag = etagOf(application.version);
        return application;
      },
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(DecisionBody),
        response: { 200: Application, ...problemResponses(400, 401, 403, 404, 409, 412, 415, 422) },
        detail: {
          tags,
          summary: "Decide (admins): offer, conditional offer, waitlist or reject",
          description:
            "Only from the statuses the lifecycle table allows (409 ILLEGAL_TRANSITION). Offers hold one of the intake's seats (409 NO_SEATS_AVAILABLE when none is free) and carry a response deadline (`respondBy`, default from configuration); conditional offers list their `conditions`; the waitlist takes an optional `waitlistPosition`. The applicant is emailed.",
          security: writeSecurity,
        },
      },
    );
  const intakes = new Elysia({ name: "intake-seats", prefix: "/api/v1/staff/intakes" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/:id/seats/", ({ params }) => getSeats(deps, params.id), {
      auth: STAFF,
      params: IntakeParams,
      response: { 200: Seats, ...problemResponses(401, 403, 404) },
      detail: {
        tags,
        summary: "An intake's seats: capacity, held by offers, taken, available, waitlisted",
        security: readSecurity,
      },
    })
    .get(
      "/:id/waitlist/",
      ({ params, query, request }) => listWaitlist(deps, params.id, pageOf(query), request.url),
      {
        auth: STAFF,
        params: IntakeParams,
        query: WaitlistQuery,
        response: { 200: ApplicationPage, ...problemResponses(401, 403, 404, 422) },
        detail: {
          tags,
          summary: "An intake's waitlist, first in line first",
          security: readSecurity,
        },
      },
    )
    .post(
      "/:id/waitlist/promote/",
      async ({ actor, clientIp, params, body }) =>
        promoteFromWaitlist(deps, originOf(actor, clientIp), params.id, body ?? {}),
      {
        auth: ["admin"],
        params: IntakeParams,
        ...jsonBody(PromoteBody),
        response: { 200: Application, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Offer the first waitlisted applicant a seat that has freed (admins)",
          description:
            "409 NO_SEATS_AVAILABLE while every seat is held; 409 WAITLIST_EMPTY when nobody waits.",
          security: writeSecurity,
        },
      },
    );
  return new Elysia({ name: "decisions-all" }).use(decide).use(intakes);
};
