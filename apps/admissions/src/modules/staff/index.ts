import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problemResponses, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF, User } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  IdParams,
  PoolMembers,
  ReviewerPool,
  StaffCreate,
  StaffPage,
  StaffQuery,
  StaffUpdate,
} from "./model.ts";
import {
  createStaff,
  getPool,
  listStaff,
  type StaffDeps,
  setPool,
  updateStaff,
} from "./service.ts";

const tags = ["staff"];

/** Staff accounts and the reviewers of each program, managed by admins. */
export const staff = (deps: StaffDeps & { guard: AuthGuard; trustedProxies: TrustedProxies }) =>
  new Elysia({ name: "staff", prefix: "/api/v1/staff" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/users/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createStaff(deps, originOf(actor, clientIp), body);
      },
      {
        auth: ["admin"],
        ...jsonBody(StaffCreate),
        response: { 201: User, ...problemResponses(400, 401, 403, 409, 415, 422) },
        detail: {
          tags,
          summary: "Create a reviewer or admin account (admins)",
          description: "409 EMAIL_TAKEN for an email already registered.",
          security: writeSecurity,
        },
      },
    )
    .get("/users/", ({ query, request }) => listStaff(deps, query, pageOf(query), request.url), {
      auth: ["admin"],
      query: StaffQuery,
      response: { 200: StaffPage, ...problemResponses(401, 403, 422) },
      detail: { tags, summary: "Staff accounts (admins)", security: readSecurity },
    })
    .patch(
      "/users/:id/",
      ({ actor, clientIp, params, body }) =>
        updateStaff(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(StaffUpdate),
        response: { 200: User, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Rename or (de)activate a staff account (admins)",
          description:
            "A deactivated account is refused at once on every request. 409 CANNOT_CHANGE_OWN_ACCOUNT when deactivating yourself.",
          security: writeSecurity,
        },
      },
    )
    .get("/programs/:id/reviewers/", ({ params }) => getPool(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: PoolMembers, ...problemResponses(401, 403, 404) },
      detail: { tags, summary: "A program's reviewers (staff)", security: readSecurity },
    })
    .put(
      "/programs/:id/reviewers/",
      ({ actor, clientIp, params, body }) =>
        setPool(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(ReviewerPool),
        response: { 200: PoolMembers, ...problemResponses(400, 401, 403, 404, 415, 422) },
        detail: {
          tags,
          summary: "Set a program's reviewers (admins): round-robin assigns among them",
          security: writeSecurity,
        },
      },
    );
