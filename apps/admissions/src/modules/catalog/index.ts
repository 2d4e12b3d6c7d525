import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { Application, ApplicationPage, Seats } from "../workflow/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  DecisionsDue,
  DecisionsDueBody,
  Intake,
  IntakeCreate,
  IntakeUpdate,
  Program,
  ProgramCreate,
  ProgramDetail,
  ProgramListQuery,
  ProgramPage,
  ProgramUpdate,
  PromoteBody,
  WaitlistQuery,
} from "./model.ts";
import {
  type CatalogDeps,
  createIntake,
  createProgram,
  deactivateProgram,
  getDecisionsDue,
  getProgram,
  getSeats,
  listPrograms,
  listWaitlist,
  promoteFromWaitlist,
  setDecisionsDue,
  updateIntake,
  updateProgram,
} from "./service.ts";

/** Who maintains the catalog (the "staff"): reviewers and admins. */
export const CATALOG_EDITORS = STAFF;

const tags = ["catalog"];
/** An intake's seats, waitlist and decision deadline are the decisions' side of it. */
const decisionTags = ["decisions"];
const write = { auth: CATALOG_EDITORS, detail: { tags, security: writeSecurity } } as const;

/**
 * The public catalog, and the staff edits of it (each one audited with its origin); an
 * intake's seats and waitlist for staff, admins promoting from the waitlist.
 */
export const catalog = (deps: CatalogDeps & { guard: AuthGuard; trustedProxies: TrustedProxies }) =>
  new Elysia({ name: "catalog", prefix: "/api/v1" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get(
      "/catalog/programs/",
      ({ query, viewer, request }) => listPrograms(deps, query, pageOf(query), viewer, request.url),
      {
        optionalAuth: true,
        query: ProgramListQuery,
        response: { 200: ProgramPage },
        detail: {
          tags,
          summary: "List programs (public): search, filters, ordering, pagination",
          description:
            "Anonymous callers and applicants see active programs only; staff see all and may filter on `active`. Credentials are optional: an invalid bearer token is refused (401); an ended session cookie is ignored.",
          security: [{}, ...readSecurity],
        },
      },
    )
    .post(
      "/catalog/programs/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createProgram(deps, originOf(actor, clientIp), body);
      },
      {
        ...write,
        ...jsonBody(ProgramCreate),
        response: { 201: Program, ...problems("FORBIDDEN", "PROGRAM_CODE_TAKEN") },
        detail: { ...write.detail, summary: "Create a program (staff)" },
      },
    )
    .get("/catalog/programs/:id/", ({ params, viewer }) => getProgram(deps, params.id, viewer), {
      optionalAuth: true,
      params: IdParams,
      response: { 200: ProgramDetail, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "A program with its intakes (public; inactive programs for staff only)",
        security: [{}, ...readSecurity],
      },
    })
    .patch(
      "/catalog/programs/:id/",
      ({ actor, clientIp, params, body }) =>
        updateProgram(deps, originOf(actor, clientIp), params.id, body),
      {
        ...write,
        params: IdParams,
        ...jsonBody(ProgramUpdate),
        response: { 200: Program, ...problems("FORBIDDEN", "NOT_FOUND", "PROGRAM_CODE_TAKEN") },
        detail: { ...write.detail, summary: "Update a program, including `active` (staff)" },
      },
    )
    .post(
      "/catalog/programs/:id/deactivate/",
      ({ actor, clientIp, params }) =>
        deactivateProgram(deps, originOf(actor, clientIp), params.id),
      {
        ...write,
        params: IdParams,
        response: { 200: Program, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          ...write.detail,
          summary: "Deactivate a program: hidden from the public, closed to new applications",
        },
      },
    )
    .post(
      "/catalog/programs/:id/intakes/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return createIntake(deps, originOf(actor, clientIp), params.id, body);
      },
      {
        ...write,
        params: IdParams,
        ...jsonBody(IntakeCreate),
        response: { 201: Intake, ...problems("FORBIDDEN", "NOT_FOUND", "INTAKE_TERM_TAKEN") },
        detail: { ...write.detail, summary: "Add an intake to a program (staff)" },
      },
    )
    .patch(
      "/catalog/intakes/:id/",
      ({ actor, clientIp, params, body }) =>
        updateIntake(deps, originOf(actor, clientIp), params.id, body),
      {
        ...write,
        params: IdParams,
        ...jsonBody(IntakeUpdate),
        response: {
          200: Intake,
          ...problems("FORBIDDEN", "NOT_FOUND", "INTAKE_TERM_TAKEN", "CAPACITY_BELOW_TAKEN"),
        },
        detail: { ...write.detail, summary: "Update an intake (staff)" },
      },
    )
    .get("/staff/intakes/:id/decisions-due/", ({ params }) => getDecisionsDue(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: DecisionsDue, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags: decisionTags,
        summary: "When the intake's decisions are due (staff)",
        security: readSecurity,
      },
    })
    .put(
      "/staff/intakes/:id/decisions-due/",
      ({ actor, clientIp, params, body }) =>
        setDecisionsDue(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(DecisionsDueBody),
        response: { 200: DecisionsDue, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags: decisionTags,
          summary: "Set or clear when the intake's decisions are due (admins)",
          description:
            "Reviewers assigned to its applications still submitted or under review, and not yet reviewed by them, are emailed ADMISSIONS_DECISION_REMINDER_DAYS before it, once per reviewer and due date.",
          security: writeSecurity,
        },
      },
    )
    .get("/staff/intakes/:id/seats/", ({ params }) => getSeats(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: Seats, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags: decisionTags,
        summary: "An intake's seats: capacity, held by offers, taken, available, waitlisted",
        security: readSecurity,
      },
    })
    .get(
      "/staff/intakes/:id/waitlist/",
      ({ actor, params, query, request }) =>
        listWaitlist(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: STAFF,
        params: IdParams,
        query: WaitlistQuery,
        response: { 200: ApplicationPage, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags: decisionTags,
          summary: "An intake's waitlist, first in line first",
          security: readSecurity,
        },
      },
    )
    .post(
      "/staff/intakes/:id/waitlist/promote/",
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
          tags: decisionTags,
          summary: "Offer the first waitlisted applicant a seat that has freed (admins)",
          description:
            "409 NO_SEATS_AVAILABLE while every seat is held; 409 WAITLIST_EMPTY when nobody waits.",
          security: writeSecurity,
        },
      },
    );
