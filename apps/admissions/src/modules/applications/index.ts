import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia, t } from "elysia";
import { jsonBody, problems, readSecurity, withHeaders, writeSecurity } from "../../lib/openapi.ts";
import { PageQuery, pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import type { User } from "../users/model.ts";
import { Application, ApplicationPage, type ApplicationStatus } from "../workflow/model.ts";
import { decisionOf, etagOf, originOf, preconditionsOf } from "../workflow/service.ts";
import {
  ActionBody,
  ApplicationCreate,
  ApplicationListQuery,
  ApplicationUpdate,
  TransitionPage,
  TransitionRequest,
} from "./model.ts";
import {
  type ApplicationsDeps,
  createApplication,
  getApplication,
  getHistory,
  listApplications,
  transition,
  updateDraft,
} from "./service.ts";

export type ApplicationsRoutesDeps = ApplicationsDeps & {
  guard: AuthGuard;
  trustedProxies: TrustedProxies;
};

const tags = ["applications"];
const IfMatch = t.Object({
  "if-match": t.Optional(t.String({ description: 'The ETag you last read, e.g. "3"' })),
});
/** What every move can answer: the lifecycle table, the version check, the application. */
const MOVE_PROBLEMS = [
  "NOT_FOUND",
  "BAD_REQUEST",
  "ILLEGAL_TRANSITION",
  "TRANSITION_FORBIDDEN",
  "VERSION_CONFLICT",
  "PRECONDITION_FAILED",
] as const;
const SUBMISSION_PROBLEMS = [
  "PROGRAM_INACTIVE",
  "INTAKE_NOT_OPEN",
  "APPLICATION_DEADLINE_PASSED",
  "REQUIRED_DOCUMENTS_MISSING",
  "APPLICATION_FEE_UNPAID",
] as const;
const OFFER_PROBLEMS = ["OFFER_EXPIRED", "NO_SEATS_AVAILABLE"] as const;
/** An application as answered: its version rides along as the ETag. */
const Versioned = withHeaders(Application, "ETag");

/** The response carries the version as an ETag, for If-Match on the next change. */
const withEtag = (set: { headers: Record<string, unknown> }, application: Application) => {
  set.headers.etag = etagOf(application.version);
  return application;
};

type ActionContext = {
  actor: User;
  clientIp: string;
  params: { id: string };
  body: typeof ActionBody.static | null;
  headers: { "if-match"?: string };
  set: { headers: Record<string, unknown> };
};

const origin = originOf;

export const applications = (deps: ApplicationsRoutesDeps) => {
  /** submit/ and withdraw/: the moves applicants make most, as endpoints of their own. */
  const moveTo =
    (to: ApplicationStatus) =>
    async ({ actor, clientIp, params, body, headers, set }: ActionContext) =>
      withEtag(
        set,
        await transition(deps, origin(actor, clientIp), params.id, {
          to,
          reason: body?.reason ?? null,
          reasonCode: body?.reasonCode ?? null,
          preconditions: preconditionsOf(headers["if-match"] ?? null, body?.version),
        }),
      );
  const action = {
    auth: true,
    params: IdParams,
    headers: IfMatch,
    ...jsonBody(ActionBody),
    response: { 200: Versioned, ...problems(...MOVE_PROBLEMS) },
  } as const;

  return new Elysia({ name: "applications", prefix: "/api/v1/applications" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get(
      "/",
      ({ actor, query, request }) =>
        listApplications(deps, actor, query, pageOf(query), request.url),
      {
        auth: true,
        query: ApplicationListQuery,
        response: { 200: ApplicationPage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "List applications: applicants their own, staff all",
          security: readSecurity,
        },
      },
    )
    .post(
      "/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return withEtag(set, await createApplication(deps, origin(actor, clientIp), body));
      },
      {
        auth: ["applicant"],
        ...jsonBody(ApplicationCreate),
        response: {
          201: Versioned,
          ...problems(
            "FORBIDDEN",
            "APPLICATION_EXISTS",
            "PROGRAM_INACTIVE",
            "INTAKE_NOT_OPEN",
            "APPLICATION_DEADLINE_PASSED",
          ),
        },
        detail: {
          tags,
          summary: "Start a draft for an open intake (one per program and intake)",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/:id/",
      async ({ actor, params, set }) => withEtag(set, await getApplication(deps, actor, params.id)),
      {
        auth: true,
        params: IdParams,
        response: { 200: Versioned, ...problems("NOT_FOUND") },
        detail: { tags, summary: "One application (ETag: its version)", security: readSecurity },
      },
    )
    .patch(
      "/:id/",
      async ({ actor, params, body, headers, set }) =>
        withEtag(
          set,
          await updateDraft(
            deps,
            actor,
            params.id,
            body,
            preconditionsOf(headers["if-match"] ?? null, body.version),
          ),
        ),
      {
        auth: ["applicant"],
        params: IdParams,
        headers: IfMatch,
        ...jsonBody(ApplicationUpdate),
        response: {
          200: Versioned,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "BAD_REQUEST",
            "APPLICATION_NOT_EDITABLE",
            "VERSION_CONFLICT",
            "PRECONDITION_FAILED",
          ),
        },
        detail: {
          tags,
          summary: "Edit a draft (optimistic locking: If-Match or `version`)",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:id/transitions/",
      async ({ actor, clientIp, params, body, headers, set }) =>
        withEtag(
          set,
          await transition(deps, origin(actor, clientIp), params.id, {
            to: body.to,
            reason: body.reason ?? null,
            reasonCode: body.reasonCode ?? null,
            preconditions: preconditionsOf(headers["if-match"] ?? null, body.version),
            decision: decisionOf(body),
          }),
        ),
      {
        auth: true,
        params: IdParams,
        headers: IfMatch,
        ...jsonBody(TransitionRequest),
        response: {
          200: Versioned,
          ...problems(...MOVE_PROBLEMS, ...SUBMISSION_PROBLEMS, ...OFFER_PROBLEMS),
        },
        detail: {
          tags,
          summary: "Move an application to another status",
          description:
            "The lifecycle table decides: a move it does not list is 409 ILLEGAL_TRANSITION; one listed for another role is 403 TRANSITION_FORBIDDEN. Every move is recorded in the history. Offers, conditional offers and the waitlist take their details here too (`respondBy`, `conditions`, `waitlistPosition`); a seat must be free for an offer (409 NO_SEATS_AVAILABLE).",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/:id/history/",
      ({ actor, params, query, request }) =>
        getHistory(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: true,
        params: IdParams,
        query: t.Object(PageQuery),
        response: { 200: TransitionPage, ...problems("NOT_FOUND") },
        detail: {
          tags,
          summary: "The application's transitions: who, from, to, why, when",
          security: readSecurity,
        },
      },
    )
    .post("/:id/submit/", moveTo("submitted"), {
      ...action,
      response: { 200: Versioned, ...problems(...MOVE_PROBLEMS, ...SUBMISSION_PROBLEMS) },
      detail: {
        tags,
        summary: "Submit a draft",
        description:
          "Runs every submission guard: intake open and before the deadline (INTAKE_NOT_OPEN, APPLICATION_DEADLINE_PASSED), required documents on file (REQUIRED_DOCUMENTS_MISSING), fee paid or waived (APPLICATION_FEE_UNPAID).",
        security: writeSecurity,
      },
    })
    .post("/:id/accept/", moveTo("accepted"), {
      ...action,
      response: { 200: Versioned, ...problems(...MOVE_PROBLEMS, ...OFFER_PROBLEMS) },
      detail: {
        tags,
        summary: "Accept an offer or a conditional offer (the applicant), before its deadline",
        description:
          "409 OFFER_EXPIRED past `offer.respondBy`; 409 NO_SEATS_AVAILABLE if the intake's accepted places are all taken.",
        security: writeSecurity,
      },
    })
    .post("/:id/decline/", moveTo("declined"), {
      ...action,
      detail: {
        tags,
        summary: "Decline an offer (the applicant): the seat goes back to the intake",
        security: writeSecurity,
      },
    })
    .post("/:id/withdraw/", moveTo("withdrawn"), {
      ...action,
      detail: {
        tags,
        summary: "Withdraw an application",
        description:
          "Open from every status that is not final, to the applicant and to admins. 409 ILLEGAL_TRANSITION from a final status.",
        security: writeSecurity,
      },
    });
};
