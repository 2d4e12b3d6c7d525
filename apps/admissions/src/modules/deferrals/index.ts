import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import {
  Deferral,
  DeferralCreate,
  DeferralDecision,
  DeferralList,
  DeferralParams,
} from "./model.ts";
import {
  approveDeferral,
  type DeferralsDeps,
  listDeferrals,
  refuseDeferral,
  requestDeferral,
} from "./service.ts";

type Deps = DeferralsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];

/** Deferring an accepted place to a later intake: asked for, then approved or refused. */
export const deferrals = (deps: Deps) =>
  new Elysia({ name: "deferrals", prefix: "/api/v1/applications/:id/deferrals" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ actor, params }) => listDeferrals(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: DeferralList, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "The application's deferral requests (its applicant, staff)",
        security: readSecurity,
      },
    })
    .post(
      "/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return requestDeferral(deps, originOf(actor, clientIp), params.id, body);
      },
      {
        auth: ["applicant", "admin"],
        params: ApplicationParams,
        ...jsonBody(DeferralCreate),
        response: {
          201: Deferral,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "DEFERRAL_NOT_ALLOWED",
            "DEFERRAL_PENDING",
            "DEFERRAL_CONFLICT",
          ),
        },
        detail: {
          tags,
          summary: "Ask to defer an accepted place to a later intake (the applicant, or an admin)",
          description:
            "Accepted applications only (409 DEFERRAL_NOT_ALLOWED); `toIntakeId` a later intake of the same program (422); one open request at a time (409 DEFERRAL_PENDING); 409 DEFERRAL_CONFLICT if the applicant already applied to that intake. Nothing moves until an admin approves.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:deferralId/approve/",
      ({ actor, clientIp, params, body }) =>
        approveDeferral(deps, originOf(actor, clientIp), params.id, params.deferralId, body ?? {}),
      {
        auth: ["admin"],
        params: DeferralParams,
        ...jsonBody(DeferralDecision),
        response: {
          200: Deferral,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "DEFERRAL_CLOSED",
            "DEFERRAL_NOT_ALLOWED",
            "DEFERRAL_CONFLICT",
            "NO_SEATS_AVAILABLE",
            "VERSION_CONFLICT",
          ),
        },
        detail: {
          tags,
          summary: "Approve a deferral (admins): the place moves to the later intake",
          description:
            "In one transaction: the seat is released in the old intake and taken in the new one (409 NO_SEATS_AVAILABLE when it has none), the history and audit log record it, and the applicant is emailed. 409 DEFERRAL_CLOSED when already decided.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:deferralId/refuse/",
      ({ actor, clientIp, params, body }) =>
        refuseDeferral(deps, originOf(actor, clientIp), params.id, params.deferralId, body ?? {}),
      {
        auth: ["admin"],
        params: DeferralParams,
        ...jsonBody(DeferralDecision),
        response: { 200: Deferral, ...problems("FORBIDDEN", "NOT_FOUND", "DEFERRAL_CLOSED") },
        detail: {
          tags,
          summary: "Refuse a deferral (admins): the place stays; the applicant is emailed",
          security: writeSecurity,
        },
      },
    );
