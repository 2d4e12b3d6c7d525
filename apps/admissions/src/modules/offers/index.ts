import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, withHeaders, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { Application } from "../workflow/model.ts";
import { etagOf, originOf } from "../workflow/service.ts";
import {
  ConditionList,
  ConditionParams,
  ConditionUpdate,
  DecisionBody,
  Deferral,
  DeferralCreate,
  DeferralDecision,
  DeferralList,
  DeferralParams,
  EvidenceBody,
  Reason,
  ReasonCreate,
  ReasonList,
  ReasonParams,
  ReasonQuery,
  ReasonUpdate,
  StaffDeferralPage,
  StaffDeferralQuery,
} from "./model.ts";
import {
  approveDeferral,
  attachEvidence,
  createReason,
  decide,
  listAllDeferrals,
  listConditions,
  listDeferrals,
  listReasons,
  type OffersDeps,
  refuseDeferral,
  requestDeferral,
  updateCondition,
  updateReason,
} from "./service.ts";

type Deps = OffersDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];
const application = "/applications/:id";

/**
 * Offers: admins decide an application (offer, conditional offer, waitlist, reject); a
 * conditional offer's conditions, read by the applicant and staff and settled by admins;
 * deferring an accepted place; the reasons list (read by everyone signed in, kept by admins).
 */
export const offers = (deps: Deps) =>
  new Elysia({ name: "offers", prefix: "/api/v1" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      `${application}/decision/`,
      async ({ actor, clientIp, params, body, headers, set }) => {
        const decided = await decide(
          deps,
          originOf(actor, clientIp),
          params.id,
          body,
          headers["if-match"] ?? null,
        );
        set.headers.etag = etagOf(decided.version);
        return decided;
      },
      {
        auth: ["admin"],
        params: ApplicationParams,
        ...jsonBody(DecisionBody),
        response: {
          200: withHeaders(Application, "ETag"),
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "BAD_REQUEST",
            "ILLEGAL_TRANSITION",
            "TRANSITION_FORBIDDEN",
            "VERSION_CONFLICT",
            "PRECONDITION_FAILED",
            "NO_SEATS_AVAILABLE",
          ),
        },
        detail: {
          tags,
          summary: "Decide (admins): offer, conditional offer, waitlist or reject",
          operationId: "applications.decide",
          description:
            "Only from the statuses the lifecycle table allows (409 ILLEGAL_TRANSITION). Offers hold one of the intake's seats (409 NO_SEATS_AVAILABLE when none is free) and carry a response deadline (`respondBy`, default from configuration); conditional offers list their `conditions`; the waitlist takes an optional `waitlistPosition`. The applicant is emailed.",
          security: writeSecurity,
        },
      },
    )
    .get(
      `${application}/conditions/`,
      ({ actor, params }) => listConditions(deps, actor, params.id),
      {
        auth: true,
        params: ApplicationParams,
        response: { 200: ConditionList, ...problems("NOT_FOUND") },
        detail: {
          tags,
          summary: "The conditions of the application's offer (its applicant, staff)",
          description:
            "Each condition with its status, due date, evidence and when it was settled; `verifiedBy` is shown to staff only. Empty for an application that never had a conditional offer.",
          security: readSecurity,
        },
      },
    )
    .put(
      `${application}/conditions/:conditionId/evidence/`,
      ({ actor, params, body }) =>
        attachEvidence(deps, actor, params.id, params.conditionId, body.documentId),
      {
        auth: ["applicant"],
        params: ConditionParams,
        ...jsonBody(EvidenceBody),
        response: {
          200: ConditionList,
          ...problems("FORBIDDEN", "NOT_FOUND", "CONDITIONS_CLOSED", "CONDITION_SETTLED"),
        },
        detail: {
          tags,
          summary: "Name the evidence for one of your offer's conditions (the applicant)",
          description:
            "`documentId`: a document of this application (upload it first as type `condition_evidence`, or name one on file; else 422). Only while the condition is pending (409 CONDITION_SETTLED) and the offer stands (409 CONDITIONS_CLOSED). Again to replace it. The office then settles the condition.",
          security: writeSecurity,
        },
      },
    )
    .patch(
      `${application}/conditions/:conditionId/`,
      ({ actor, clientIp, params, body }) =>
        updateCondition(deps, originOf(actor, clientIp), params.id, params.conditionId, body),
      {
        auth: ["admin"],
        params: ConditionParams,
        ...jsonBody(ConditionUpdate),
        response: {
          200: ConditionList,
          ...problems("FORBIDDEN", "NOT_FOUND", "CONDITIONS_CLOSED", "VERSION_CONFLICT"),
        },
        detail: {
          tags,
          summary: "Settle a condition (admins): met, not met, waived, or back to pending",
          description:
            "With an optional `note` and `evidenceDocumentId` (a document of the same application, else 422). `not_met` moves the application to conditions_not_met; the last condition met or waived makes the offer unconditional (an unanswered conditional offer becomes `offered`; an accepted one is confirmed, `unconditionalAt`), and the applicant is emailed. 409 CONDITIONS_CLOSED once the offer is settled or no longer stands.",
          security: writeSecurity,
        },
      },
    )
    .get("/reasons/", ({ actor, query }) => listReasons(deps, actor, query), {
      auth: true,
      query: ReasonQuery,
      response: { 200: ReasonList },
      detail: {
        tags,
        summary: "The reasons to pick for a rejection, withdrawal or decline (`reasonCode`)",
        description:
          "Active ones by kind and code; admins may list inactive ones (`active=false`).",
        security: readSecurity,
      },
    })
    .post(
      "/reasons/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createReason(deps, originOf(actor, clientIp), body);
      },
      {
        auth: ["admin"],
        ...jsonBody(ReasonCreate),
        response: { 201: Reason, ...problems("FORBIDDEN", "REASON_CODE_TAKEN") },
        detail: {
          tags,
          summary: "Add a reason (admins); 409 REASON_CODE_TAKEN for a code of that kind in use",
          security: writeSecurity,
        },
      },
    )
    .patch(
      "/reasons/:kind/:code/",
      ({ actor, clientIp, params, body }) =>
        updateReason(deps, originOf(actor, clientIp), params, body),
      {
        auth: ["admin"],
        params: ReasonParams,
        ...jsonBody(ReasonUpdate),
        response: { 200: Reason, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Relabel or (de)activate a reason (admins); codes are never deleted",
          security: writeSecurity,
        },
      },
    )
    .get(
      `${application}/deferrals/`,
      ({ actor, params }) => listDeferrals(deps, actor, params.id),
      {
        auth: true,
        params: ApplicationParams,
        response: { 200: DeferralList, ...problems("NOT_FOUND") },
        detail: {
          tags,
          summary: "The application's deferral requests (its applicant, staff)",
          security: readSecurity,
        },
      },
    )
    .get(
      "/staff/deferrals/",
      ({ query, request }) => listAllDeferrals(deps, query, pageOf(query), request.url),
      {
        auth: ["admin"],
        query: StaffDeferralQuery,
        response: { 200: StaffDeferralPage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Every application's deferral requests, oldest first (admins)",
          description:
            "`status=requested`: the ones waiting for a decision. Each with the applicant and the program, so the office can work through them.",
          security: readSecurity,
        },
      },
    )
    .post(
      `${application}/deferrals/`,
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
      `${application}/deferrals/:deferralId/approve/`,
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
      `${application}/deferrals/:deferralId/refuse/`,
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
