import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF, User } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  BulkResult,
  BulkTransitionBody,
  ExportQuery,
  OfficeQueuePage,
  OfficeQueueQuery,
  PasswordResetSent,
  PoolMembers,
  ReasonStats,
  ReasonStatsQuery,
  ReviewerPool,
  StaffCreate,
  StaffPage,
  StaffQuery,
  StaffUpdate,
  Stats,
  StatsQuery,
} from "./model.ts";
import {
  applicationStats,
  type BulkDeps,
  bulkTransition,
  createStaff,
  exportApplications,
  getPool,
  listStaff,
  officeQueue,
  reasonStats,
  resetStaffPassword,
  type StaffDeps,
  type StaffResetDeps,
  setPool,
  updateStaff,
} from "./service.ts";

const tags = ["staff"];

/**
 * The staff console: staff accounts and each program's reviewers (managed by admins), and the
 * work on many applications at once (bulk moves, the CSV export, the counts).
 */
export const staff = (
  deps: StaffDeps &
    BulkDeps &
    StaffResetDeps & { guard: AuthGuard; trustedProxies: TrustedProxies },
) =>
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
        response: { 201: User, ...problems("FORBIDDEN", "EMAIL_TAKEN") },
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
      response: { 200: StaffPage, ...problems("FORBIDDEN") },
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
        response: {
          200: User,
          ...problems("FORBIDDEN", "NOT_FOUND", "CANNOT_CHANGE_OWN_ACCOUNT"),
        },
        detail: {
          tags,
          summary: "Rename or (de)activate a staff account (admins)",
          description:
            "A deactivated account is refused at once on every request. 409 CANNOT_CHANGE_OWN_ACCOUNT when deactivating yourself.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/users/:id/password-reset/",
      async ({ actor, clientIp, params, set }) => {
        const detail = await resetStaffPassword(deps, originOf(actor, clientIp), params.id);
        set.status = 202;
        return { detail };
      },
      {
        auth: ["admin"],
        params: IdParams,
        response: {
          202: PasswordResetSent,
          ...problems("FORBIDDEN", "NOT_FOUND", "CONFLICT", "CANNOT_CHANGE_OWN_ACCOUNT"),
        },
        detail: {
          tags,
          summary: "Email a staff member a password reset link and end their sign-ins (admins)",
          description:
            "The link (30 minutes, single use) leads to the portal's /account/reset-password page; the current password keeps working until it is used. 404 for an account that is not staff; 409 CANNOT_CHANGE_OWN_ACCOUNT for yourself, CONFLICT for a deactivated account. Audited as staff.password_reset.",
          security: writeSecurity,
        },
      },
    )
    .get("/programs/:id/reviewers/", ({ params }) => getPool(deps, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: PoolMembers, ...problems("FORBIDDEN", "NOT_FOUND") },
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
        response: { 200: PoolMembers, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Set a program's reviewers (admins): round-robin assigns among them",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/applications/bulk-transitions/",
      ({ actor, clientIp, body }) => bulkTransition(deps, originOf(actor, clientIp), body),
      {
        auth: STAFF,
        ...jsonBody(BulkTransitionBody),
        response: { 200: BulkResult, ...problems("FORBIDDEN", "BULK_REFUSED") },
        detail: {
          tags,
          summary: "Move many applications at once: all or none",
          description:
            "Each move follows the lifecycle table and the same rules as a single one. If any application cannot move, nothing changes and 409 BULK_REFUSED lists `refusals`: `{applicationId, status, code, detail}` for each.",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/applications/",
      ({ actor, query, request }) => officeQueue(deps.db, actor, query, pageOf(query), request.url),
      {
        auth: ["admin"],
        query: OfficeQueueQuery,
        response: { 200: OfficeQueuePage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "The office's queue (admins): applications with score, reviewers and payment",
          description:
            "The list's filters (status, programId, intakeId, reviewerId, submittedFrom, submittedTo, search) and the office's: paymentState, scoreMin/scoreMax (the mean of the counted reviews' weighted totals), flag. Sorted by `ordering`; `countsByStatus` counts every filter but `status`. The CSV export takes the same filters.",
          security: readSecurity,
        },
      },
    )
    .get(
      "/applications/export/",
      async ({ actor, clientIp, query }) => {
        const stream = await exportApplications(
          deps.db,
          originOf(actor, clientIp),
          query,
          deps.now(),
        );
        const day = new Date(deps.now()).toISOString().slice(0, 10);
        return new Response(stream, {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="applications-${day}.csv"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        auth: ["admin"],
        query: ExportQuery,
        response: problems("FORBIDDEN"),
        detail: {
          tags,
          summary: "The filtered applications as CSV, streamed (admins)",
          description:
            "The office queue's filters (status, programId, intakeId, reviewerId, submittedFrom, submittedTo, search, paymentState, scoreMin, scoreMax, flag), in creation order, with each application's score and payment state. Every field is quoted; a cell starting with =, +, -, @ (or a tab or carriage return) is prefixed with an apostrophe so spreadsheets do not run it as a formula.",
          security: readSecurity,
          responses: {
            200: {
              description: "CSV (RFC 4180), one header row",
              content: { "text/csv": { schema: { type: "string" } } },
            },
          },
        },
      },
    )
    .get("/stats/", ({ query }) => applicationStats(deps.db, query), {
      auth: STAFF,
      query: StatsQuery,
      response: { 200: Stats, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Application counts by status, program and intake (staff)",
        security: readSecurity,
      },
    })
    .get("/stats/reasons/", ({ query }) => reasonStats(deps.db, query), {
      auth: STAFF,
      query: ReasonStatsQuery,
      response: { 200: ReasonStats, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Rejections, withdrawals and declines by reason code (staff)",
        description:
          "Counted from the history (each application enters these final statuses once), filtered by program, intake and when the move was made.",
        security: readSecurity,
      },
    });
