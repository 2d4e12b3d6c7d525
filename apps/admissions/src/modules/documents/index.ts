import {
  clientGuards,
  createRateLimiter,
  HttpProblem,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { Elysia } from "elysia";
import { contentDisposition } from "../../lib/files/filename.ts";
import { assertMultipartHeaders } from "../../lib/files/multipart.ts";
import { jsonBody, problems, readSecurity, withHeaders, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  Checklist,
  Document,
  DocumentListQuery,
  DocumentPage,
  DocumentParams,
  ReviewBody,
  uploadRequestBody,
} from "./model.ts";
import {
  type DocumentsDeps,
  deleteDocument,
  documentPath,
  getChecklist,
  getDocument,
  listDocuments,
  openDocument,
  reviewDocument,
  uploadDocument,
} from "./service.ts";

export type DocumentsRoutesDeps = DocumentsDeps & {
  guard: AuthGuard;
  rateLimiting: RateLimitGuard;
  trustedProxies: TrustedProxies;
  store: SharedStore;
  /** Uploads per applicant per hour. */
  uploadsPerHour: number;
};

const tags = ["documents"];

/** What the upload route's parse hook leaves as the body: the stream itself is read later. */
const STREAMED = Symbol("multipart body, streamed by the handler");

/** Downloads are never rendered by the browser in our origin, whatever the bytes hold. */
const downloadHeaders = (row: {
  media_type: string;
  size_bytes: number;
  sha256: string;
  file_name: string;
}) => ({
  "content-type": row.media_type,
  "content-length": String(row.size_bytes),
  "content-disposition": contentDisposition(row.file_name),
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  "cache-control": "private, no-store",
  etag: `"${row.sha256}"`,
});

export const documents = (deps: DocumentsRoutesDeps) => {
  const uploadLimit = createRateLimiter(
    deps.store,
    { name: "document-upload", limit: deps.uploadsPerHour, windowMs: 3_600_000 },
    deps.now,
  );
  return new Elysia({ name: "documents", prefix: "/api/v1/applications/:id/documents" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .post(
      "/",
      async ({ actor, params, request, set }) => {
        const document = await uploadDocument(deps, actor, params.id, request);
        set.status = 201;
        set.headers.location = documentPath(params.id, document.id);
        return document;
      },
      {
        auth: ["applicant"],
        // Per account, not per IP: one account should not fill the disk however many
        // addresses it comes from. Checked before the handler reads the body.
        rateLimit: { key: "user", limiter: uploadLimit },
        params: ApplicationParams,
        // Before the quota: a request that is not an upload at all does not spend it.
        beforeHandle: ({ body }) => {
          if (body !== STREAMED) {
            throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", {
              detail: "Upload the file as multipart/form-data (fields `type` and `file`)",
            });
          }
        },
        // Elysia's own multipart parser would buffer the whole body; this one only checks the
        // headers and leaves the stream to the handler, which runs after authentication.
        parse: ({ request }) => {
          assertMultipartHeaders(request, deps.limits);
          return STREAMED;
        },
        response: {
          201: withHeaders(Document, "Location"),
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "BAD_REQUEST",
            "VALIDATION_FAILED",
            "UNSUPPORTED_MEDIA_TYPE",
            "DOCUMENT_TYPE_NOT_ALLOWED",
            "DOCUMENT_TOO_LARGE",
            "DOCUMENT_EMPTY",
            "DOCUMENT_TRUNCATED",
            "DOCUMENT_LIMIT_REACHED",
            "DOCUMENTS_CLOSED",
            "RATE_LIMITED",
            "BAD_GATEWAY",
          ),
        },
        detail: {
          tags,
          summary: "Upload a document to your application (multipart: `type`, `file`)",
          description:
            "PDF, JPEG or PNG, decided by the file's bytes (415 DOCUMENT_TYPE_NOT_ALLOWED otherwise, also for files that are two formats at once); at most 10 MiB (413 DOCUMENT_TOO_LARGE, the body is not read further); empty (DOCUMENT_EMPTY) and incomplete (DOCUMENT_TRUNCATED) files are 422. `type` must be one of the program's required document types. Open while the application is not final (409 DOCUMENTS_CLOSED).",
          security: writeSecurity,
          requestBody: uploadRequestBody,
        },
      },
    )
    .get(
      "/",
      ({ actor, params, query, request }) =>
        listDocuments(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: true,
        params: ApplicationParams,
        query: DocumentListQuery,
        response: { 200: DocumentPage, ...problems("NOT_FOUND") },
        detail: {
          tags,
          summary: "An application's documents (its applicant, staff)",
          security: readSecurity,
        },
      },
    )
    .get("/checklist/", ({ actor, params }) => getChecklist(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: Checklist, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "Each required document type: missing, uploaded, verified or rejected",
        security: readSecurity,
      },
    })
    .get(
      "/:documentId/",
      ({ actor, params }) => getDocument(deps, actor, params.id, params.documentId),
      {
        auth: true,
        params: DocumentParams,
        response: { 200: Document, ...problems("NOT_FOUND") },
        detail: { tags, summary: "One document's metadata", security: readSecurity },
      },
    )
    .get(
      "/:documentId/file/",
      async ({ actor, params }) => {
        const { row, body } = await openDocument(deps, actor, params.id, params.documentId);
        return new Response(body, { headers: downloadHeaders(row) });
      },
      {
        auth: true,
        params: DocumentParams,
        response: problems("NOT_FOUND"),
        detail: {
          tags,
          summary: "Download the file (its applicant, staff), always as an attachment",
          security: readSecurity,
          responses: {
            200: {
              description: "The file's bytes, Content-Disposition: attachment",
              headers: { ETag: { $ref: "#/components/headers/ETag" } },
              content: Object.fromEntries(
                ["application/pdf", "image/jpeg", "image/png"].map((type) => [
                  type,
                  { schema: { type: "string", format: "binary" } },
                ]),
              ),
            },
          },
        },
      },
    )
    .delete(
      "/:documentId/",
      async ({ actor, params, set }) => {
        await deleteDocument(deps, actor, params.id, params.documentId);
        set.status = 204;
      },
      {
        auth: ["applicant"],
        params: DocumentParams,
        response: problems("FORBIDDEN", "NOT_FOUND", "APPLICATION_NOT_EDITABLE"),
        detail: {
          tags,
          summary: "Delete a document from your draft",
          security: writeSecurity,
          responses: { 204: { description: "Deleted, file included" } },
        },
      },
    )
    .post(
      "/:documentId/review/",
      ({ actor, clientIp, params, body }) =>
        reviewDocument(
          deps,
          actor,
          params.id,
          params.documentId,
          body,
          originOf(actor, clientIp).clientIp,
        ),
      {
        auth: STAFF,
        params: DocumentParams,
        ...jsonBody(ReviewBody),
        response: { 200: Document, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Verify or reject a document (staff); a rejection needs a note",
          security: writeSecurity,
        },
      },
    );
};
