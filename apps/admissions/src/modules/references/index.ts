import {
  clientGuards,
  createRateLimiter,
  HttpProblem,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { Elysia } from "elysia";
import {
  jsonBody,
  noContent,
  problems,
  readSecurity,
  withHeaders,
  writeSecurity,
} from "../../lib/openapi.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import {
  LinkOpen,
  LinkText,
  linkUploadBody,
  RefereeCreate,
  RefereeInvitation,
  Reference,
  ReferenceContent,
  ReferenceList,
  ReferenceListQuery,
  ReferenceParams,
} from "./model.ts";
import {
  addReferee,
  getContent,
  listForApplication,
  MAX_REFEREES,
  openFile,
  openLink,
  REFEREES_PER_HOUR,
  type ReferenceSettings,
  type ReferencesDeps,
  referencePath,
  removeReferee,
  submitFile,
  submitText,
} from "./service.ts";

export type ReferencesRoutesDeps = ReferencesDeps & {
  settings: ReferenceSettings;
  store: SharedStore;
  guard: AuthGuard;
  rateLimiting: RateLimitGuard;
  trustedProxies: TrustedProxies;
};

const tags = ["references"];
const HOUR = 3_600_000;
const LINK_PROBLEMS = ["INVALID_REFERENCE_LINK", "REFERENCES_CLOSED", "RATE_LIMITED"] as const;

/** What the upload route's parse hook leaves as the body: the handler streams the request. */
const STREAMED = Symbol("multipart body, streamed by the handler");
const NOT_MULTIPART = Symbol("not a multipart body");
const MULTIPART = /^multipart\/form-data\s*;.*\bboundary=/i;

export const references = (deps: ReferencesRoutesDeps) => {
  const linkUsesPerIp = createRateLimiter(
    deps.store,
    { name: "reference-links-ip", limit: deps.settings.linkUsesPerIpPerHour, windowMs: HOUR },
    deps.now,
  );
  const refereesPerUser = createRateLimiter(
    deps.store,
    { name: "referees-added", limit: REFEREES_PER_HOUR, windowMs: HOUR },
    deps.now,
  );
  return new Elysia({ name: "references", prefix: "/api/v1/references" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .post(
      "/",
      async ({ actor, body, set }) => {
        const reference = await addReferee(deps, actor, body);
        set.status = 201;
        set.headers.location = referencePath(reference.id);
        return reference;
      },
      {
        auth: ["applicant"],
        rateLimit: { key: "user", limiter: refereesPerUser },
        ...jsonBody(RefereeCreate),
        response: {
          201: withHeaders(Reference, "Location"),
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "EMAIL_NOT_VERIFIED",
            "REFERENCES_CLOSED",
            "REFEREE_LIMIT_REACHED",
            "REFEREE_EXISTS",
            "REFEREE_IS_APPLICANT",
            "RATE_LIMITED",
          ),
        },
        detail: {
          tags,
          summary: "Name a referee on your application; they are emailed a link",
          description: `While the application is a draft or submitted (409 REFERENCES_CLOSED), by an applicant whose email is verified (403 EMAIL_NOT_VERIFIED). At most ${MAX_REFEREES} referees (409 REFEREE_LIMIT_REACHED), each mailbox once (409 REFEREE_EXISTS), never your own (422 REFEREE_IS_APPLICANT). Addresses are compared by the mailbox they reach: case-folded, a \`+tag\` cut, and dots ignored at gmail.com and googlemail.com (one domain). The referee's link (single use, 30 days) leads to the portal's /references/write page. ${REFEREES_PER_HOUR} per hour per applicant (429).`,
          security: writeSecurity,
        },
      },
    )
    .get("/", ({ actor, query }) => listForApplication(deps, actor, query.applicationId), {
      auth: true,
      query: ReferenceListQuery,
      response: { 200: ReferenceList, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "An application's referees and the status of each reference",
        description:
          "Its applicant, admins and the reviewers assigned to it; anyone else 404. Never the content (staff read it at /api/v1/references/{referenceId}/).",
        security: readSecurity,
      },
    })
    .get("/:referenceId/", ({ actor, params }) => getContent(deps, actor, params.referenceId), {
      auth: STAFF,
      params: ReferenceParams,
      response: { 200: ReferenceContent, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags,
        summary: "Read a reference (admins, reviewers assigned to the application)",
        description: "Applicants never see a reference's content (403); other staff get 404.",
        security: readSecurity,
      },
    })
    .get(
      "/:referenceId/file/",
      async ({ actor, params }) => {
        const { file, body } = await openFile(deps, actor, params.referenceId);
        return new Response(body, {
          headers: {
            "content-type": "application/pdf",
            "content-length": String(file.size),
            "content-disposition": file.disposition,
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; sandbox",
            "cache-control": "private, no-store",
            etag: `"${file.sha256}"`,
          },
        });
      },
      {
        auth: STAFF,
        params: ReferenceParams,
        response: problems("FORBIDDEN", "NOT_FOUND"),
        detail: {
          tags,
          summary: "Download an uploaded reference (admins, reviewers assigned), as an attachment",
          security: readSecurity,
          responses: {
            200: {
              description: "The PDF's bytes, Content-Disposition: attachment",
              headers: { ETag: { $ref: "#/components/headers/ETag" } },
              content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
            },
          },
        },
      },
    )
    .delete(
      "/:referenceId/",
      async ({ actor, params, set }) => {
        await removeReferee(deps, actor, params.referenceId);
        set.status = 204;
      },
      {
        auth: ["applicant"],
        params: ReferenceParams,
        response: problems("FORBIDDEN", "NOT_FOUND", "REFERENCES_CLOSED", "REFERENCE_RECEIVED"),
        detail: {
          tags,
          summary: "Remove a referee who has not answered; their link stops working",
          description:
            "While the application is a draft or submitted (409 REFERENCES_CLOSED); a received reference stays (409 REFERENCE_RECEIVED).",
          security: writeSecurity,
          responses: noContent("Removed; the referee's link is dead"),
        },
      },
    )
    .post("/link/", ({ body }) => openLink(deps, body.token), {
      rateLimit: { key: "ip", limiter: linkUsesPerIp },
      ...jsonBody(LinkOpen),
      response: { 200: RefereeInvitation, ...problems(...LINK_PROBLEMS) },
      detail: {
        tags,
        summary: "Referee: what the emailed link is for (does not use it)",
        description:
          "No account: the token from the link's `?token=`, in the body. 400 INVALID_REFERENCE_LINK for an unknown, expired, replaced or used link; 409 REFERENCES_CLOSED once the application is closed. Limited per client IP.",
      },
    })
    .post(
      "/link/text/",
      async ({ body, set }) => {
        await submitText(deps, body);
        set.status = 204;
      },
      {
        rateLimit: { key: "ip", limiter: linkUsesPerIp },
        ...jsonBody(LinkText),
        response: problems(...LINK_PROBLEMS),
        detail: {
          tags,
          summary: "Referee: send the reference as text; the link then stops working",
          responses: noContent("Received"),
        },
      },
    )
    .post(
      "/link/file/",
      async ({ request, set }) => {
        await submitFile(deps, request);
        set.status = 204;
      },
      {
        rateLimit: { key: "ip", limiter: linkUsesPerIp },
        beforeHandle: ({ body }) => {
          if (body !== STREAMED) {
            throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", {
              detail: "Upload the reference as multipart/form-data (fields `token` and `file`)",
            });
          }
        },
        // Headers only: the handler streams the body (as documents' upload does). It refuses
        // nothing itself, so a request that is not an upload still spends the IP's quota.
        parse: ({ request }) =>
          MULTIPART.test(request.headers.get("content-type") ?? "") ? STREAMED : NOT_MULTIPART,
        response: problems(
          ...LINK_PROBLEMS,
          "BAD_REQUEST",
          "VALIDATION_FAILED",
          "UNSUPPORTED_MEDIA_TYPE",
          "DOCUMENT_TYPE_NOT_ALLOWED",
          "DOCUMENT_TOO_LARGE",
          "DOCUMENT_EMPTY",
          "DOCUMENT_TRUNCATED",
          "BAD_GATEWAY",
        ),
        detail: {
          tags,
          summary: "Referee: upload the reference as a PDF; the link then stops working",
          description:
            "multipart/form-data with `token` and `file`: a PDF by its bytes (415 otherwise), at most 10 MiB (413). The link is checked before the file is kept.",
          requestBody: linkUploadBody,
          responses: noContent("Received"),
        },
      },
    );
};
