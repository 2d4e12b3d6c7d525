import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import { ApplicationPage } from "../applications/model.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { Application } from "../workflow/model.ts";
import { originOf } from "../workflow/service.ts";
import { DecisionsDue, DecisionsDueBody, PromoteBody, Seats, WaitlistQuery } from "./model.ts";
import {
  getDecisionsDue,
  getSeats,
  type IntakesDeps,
  listWaitlist,
  promoteFromWaitlist,
  setDecisionsDue,
} from "./service.ts";

type Deps = IntakesDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];

/** An intake's seats and waitlist, for staff; admins promote from the waitlist. */
export const intakes = (deps: Deps) =>
  new Elysia({ name: "intakes", prefix: "/api/v1/staff/intakes" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/:id/decisions-due/", ({ params }) => getDecisionsDue(deps.db, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: DecisionsDue, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags,
        summary: "When the intake's decisions are due (staff)",
        security: readSecurity,
      },
    })
    .put(
      "/:id/decisions-due/",
      ({ actor, clientIp, params, body }) =>
        setDecisionsDue(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(DecisionsDueBody),
        response: { 200: DecisionsDue, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Set or clear when the intake's decisions are due (admins)",
          description:
            "Reviewers assigned to its applications still submitted or under review, and not yet reviewed by them, are emailed ADMISSIONS_DECISION_REMINDER_DAYS before it, once per reviewer and due date.",
          security: writeSecurity,
        },
      },
    )
    .get("/:id/seats/", ({ params }) => getSeats(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: Seats, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags,
        summary: "An intake's seats: capacity, held by offers, taken, available, waitlisted",
        security: readSecurity,
      },
    })
    .get(
      "/:id/waitlist/",
      ({ actor, params, query, request }) =>
        listWaitlist(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: STAFF,
        params: IdParams,
        query: WaitlistQuery,
        response: { 200: ApplicationPage, ...problems("FORBIDDEN", "NOT_FOUND") },
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
        params: IdParams,
        ...jsonBody(PromoteBody),
        response: {
          200: Application,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "WAITLIST_EMPTY",
            "NO_SEATS_AVAILABLE",
            "ILLEGAL_TRANSITION",
          ),
        },
        detail: {
          tags,
          summary: "Offer the first waitlisted applicant a seat that has freed (admins)",
          description:
            "409 NO_SEATS_AVAILABLE while every seat is held; 409 WAITLIST_EMPTY when nobody waits.",
          security: writeSecurity,
        },
      },
    );
