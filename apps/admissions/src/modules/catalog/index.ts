import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  Intake,
  IntakeCreate,
  IntakeUpdate,
  Program,
  ProgramCreate,
  ProgramDetail,
  ProgramListQuery,
  ProgramPage,
  ProgramUpdate,
} from "./model.ts";
import {
  type CatalogDeps,
  createIntake,
  createProgram,
  deactivateProgram,
  getProgram,
  listPrograms,
  updateIntake,
  updateProgram,
} from "./service.ts";

/** Who maintains the catalog (the "staff"): reviewers and admins. */
export const CATALOG_EDITORS = STAFF;

const tags = ["catalog"];
const write = { auth: CATALOG_EDITORS, detail: { tags, security: writeSecurity } } as const;

/** The public catalog, and the staff edits of it (each one audited with its origin). */
export const catalog = (deps: CatalogDeps & { guard: AuthGuard; trustedProxies: TrustedProxies }) =>
  new Elysia({ name: "catalog", prefix: "/api/v1/catalog" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get(
      "/programs/",
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
      "/programs/",
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
    .get("/programs/:id/", ({ params, viewer }) => getProgram(deps, params.id, viewer), {
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
      "/programs/:id/",
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
      "/programs/:id/deactivate/",
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
      "/programs/:id/intakes/",
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
      "/intakes/:id/",
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
    );
