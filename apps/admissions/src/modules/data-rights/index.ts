import {
  clientGuards,
  createRateLimiter,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import { DataRequest, DataRequestPage, ErasureBody, RejectBody, RequestsQuery } from "./model.ts";
import {
  approveErasure,
  cancelErasure,
  type DataRightsDeps,
  exportData,
  getRequest,
  listRequests,
  rejectErasure,
  requestErasure,
} from "./service.ts";

const tags = ["data-rights"];
const APPLICANTS = ["applicant"] as const;
const ADMINS = ["admin"] as const;
const HOUR = 3_600_000;

/**
 * An applicant's rights over their data: one download of everything held about them, and
 * erasure. Admins see every request and decide the erasures that wait for them.
 */
export const dataRights = (
  deps: DataRightsDeps & {
    store: SharedStore;
    guard: AuthGuard;
    rateLimiting: RateLimitGuard;
    trustedProxies: TrustedProxies;
  },
) => {
  const exports = createRateLimiter(
    deps.store,
    { name: "data-export", limit: 5, windowMs: HOUR },
    deps.now,
  );
  const erasures = createRateLimiter(
    deps.store,
    { name: "data-erasure", limit: 5, windowMs: HOUR / 4 },
    deps.now,
  );
  return new Elysia({ name: "data-rights", prefix: "/api/v1/data-rights" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .post(
      "/export/",
      async ({ actor, clientIp }) => {
        const { fileName, body } = await exportData(deps, originOf(actor, clientIp));
        return new Response(body, {
          headers: {
            "content-type": "application/zip",
            "content-disposition": `attachment; filename="${fileName}"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        auth: APPLICANTS,
        rateLimit: { key: "user", limiter: exports },
        response: problems("FORBIDDEN", "RATE_LIMITED"),
        detail: {
          tags,
          summary: "Download everything held about you: data.json and your files, one ZIP",
          description:
            "Streamed as it is made. `data.json` holds your account, profile and its history, applications with their history, documents' details, payments and refunds, fee waivers, audit entries about you (staff by role only), the emails sent to you, your sign-ins and your data requests; `files/<application>/<document>-<name>` your uploads. Recorded as a completed `export` request, and emailed to you. 5 per hour.",
          security: writeSecurity,
          responses: {
            200: {
              description: "A ZIP archive, Content-Disposition: attachment",
              content: { "application/zip": { schema: { type: "string", format: "binary" } } },
            },
          },
        },
      },
    )
    .post(
      "/erasure/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return requestErasure(deps, originOf(actor, clientIp), body);
      },
      {
        auth: APPLICANTS,
        rateLimit: { key: "user", limiter: erasures },
        ...jsonBody(ErasureBody),
        response: {
          201: DataRequest,
          ...problems(
            "FORBIDDEN",
            "CONFIRMATION_FAILED",
            "ERASURE_ALREADY_REQUESTED",
            "RATE_LIMITED",
          ),
        },
        detail: {
          tags,
          summary: "Ask for your account and personal data to be erased (password again)",
          description:
            "Done at once (`completed`) when no application of yours is in progress (submitted, under review, offered, waitlisted or accepted): you are signed out everywhere and cannot sign in again. Otherwise `pending` until an admin approves (then erased, open applications withdrawn) or rejects it. Payment records are kept without your name for the retention period. 403 CONFIRMATION_FAILED for a wrong password; 409 ERASURE_ALREADY_REQUESTED while one waits.",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/requests/",
      ({ actor, query, request }) => listRequests(deps, actor, query, pageOf(query), request.url),
      {
        auth: ["applicant", "admin"],
        query: RequestsQuery,
        response: { 200: DataRequestPage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Data-rights requests: your own (applicants), everyone's (admins)",
          security: readSecurity,
        },
      },
    )
    .get("/requests/:id/", ({ actor, params }) => getRequest(deps, actor, params.id), {
      auth: ["applicant", "admin"],
      params: IdParams,
      response: { 200: DataRequest, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: { tags, summary: "One request (yours, or any for admins)", security: readSecurity },
    })
    .post(
      "/requests/:id/cancel/",
      ({ actor, clientIp, params }) => cancelErasure(deps, originOf(actor, clientIp), params.id),
      {
        auth: APPLICANTS,
        params: IdParams,
        response: {
          200: DataRequest,
          ...problems("FORBIDDEN", "NOT_FOUND", "DATA_REQUEST_NOT_PENDING"),
        },
        detail: {
          tags,
          summary: "Cancel your erasure request while it waits",
          description: "409 DATA_REQUEST_NOT_PENDING once it was decided.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/requests/:id/approve/",
      ({ actor, clientIp, params }) => approveErasure(deps, originOf(actor, clientIp), params.id),
      {
        auth: ADMINS,
        params: IdParams,
        response: {
          200: DataRequest,
          ...problems("FORBIDDEN", "NOT_FOUND", "DATA_REQUEST_NOT_PENDING"),
        },
        detail: {
          tags,
          summary: "Approve a waiting erasure (admins): the account is erased now",
          description:
            "Open applications are withdrawn by you, then everything personal is erased (docs: Data rights). 409 DATA_REQUEST_NOT_PENDING when it was decided or cancelled.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/requests/:id/reject/",
      ({ actor, clientIp, params, body }) =>
        rejectErasure(deps, originOf(actor, clientIp), params.id, body.note),
      {
        auth: ADMINS,
        params: IdParams,
        ...jsonBody(RejectBody),
        response: {
          200: DataRequest,
          ...problems("FORBIDDEN", "NOT_FOUND", "DATA_REQUEST_NOT_PENDING"),
        },
        detail: {
          tags,
          summary: "Reject a waiting erasure (admins), saying why; the applicant is emailed",
          security: writeSecurity,
        },
      },
    );
};
