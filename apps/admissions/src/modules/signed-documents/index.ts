import { createRateLimiter, HttpProblem, type SharedStore } from "@platform/server";
import { Elysia } from "elysia";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import { KeySet, OfferLetterParams, ReceiptParams, Verification, VerifyQuery } from "./model.ts";
import {
  type Issued,
  MAX_VERIFY_BYTES,
  offerLetter,
  paymentReceipt,
  publicKeys,
  type SignedDocumentsDeps,
  verifyById,
  verifyBytes,
} from "./service.ts";

export type SignedDocumentsRoutesDeps = SignedDocumentsDeps & {
  store: SharedStore;
  guard: AuthGuard;
  rateLimiting: RateLimitGuard;
};

const tags = ["signed documents"];
const HOUR = 3_600_000;
/** The form is read by the handler, after the rate limit, not by Elysia's parser before it. */
const RAW = Symbol("raw body");

/** The signed file, with its signature beside it (it cannot be inside: that would change it). */
const pdfResponse = ({ row, bytes }: Issued, name: string) =>
  new Response(bytes, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${name}-${row.id}.pdf"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "x-document-id": row.id,
      "x-document-sha256": row.sha256,
      "x-document-signature": row.signature,
      "x-signing-key-id": row.key_id,
    },
  });

const pdfDownload = (description: string) => ({
  200: {
    description,
    headers: Object.fromEntries(
      ["X-Document-Id", "X-Document-Sha256", "X-Document-Signature", "X-Signing-Key-Id"].map(
        (name) => [name, { schema: { type: "string" as const } }],
      ),
    ),
    content: { "application/pdf": { schema: { type: "string" as const, format: "binary" } } },
  },
});

/**
 * The PDF, the `file` field of a form (what a browser's file input sends; the platform takes
 * JSON and multipart bodies only), read up to the limit (413 past it, without reading further).
 */
async function readUpload(request: Request): Promise<Uint8Array> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", {
      detail: "Send the PDF as the form field `file` (multipart/form-data)",
    });
  }
  const tooLarge = () =>
    new HttpProblem("PAYLOAD_TOO_LARGE", { detail: `At most ${MAX_VERIFY_BYTES} bytes` });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_VERIFY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > MAX_VERIFY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  const body = Buffer.concat(chunks);
  const file = await fileField(body, type);
  if (file.byteLength === 0) throw new HttpProblem("BAD_REQUEST", { detail: "No PDF was sent" });
  return file;
}

async function fileField(body: Uint8Array, type: string): Promise<Uint8Array> {
  try {
    const file = (await new Response(body, { headers: { "content-type": type } }).formData()).get(
      "file",
    );
    return typeof file === "string" || file === null
      ? new Uint8Array()
      : new Uint8Array(await file.arrayBuffer());
  } catch {
    throw new HttpProblem("BAD_REQUEST", { detail: "The form could not be read" });
  }
}

const pdfBinary = { type: "string", format: "binary" } as const;

/**
 * Offer letters and receipts as signed PDFs for their applicant and staff; and, for anyone,
 * checking such a PDF and reading the public keys (limited per client address).
 */
export const signedDocuments = (deps: SignedDocumentsRoutesDeps) => {
  const issues = createRateLimiter(
    deps.store,
    { name: "signed-documents-issue", limit: 60, windowMs: HOUR },
    deps.now,
  );
  const checks = createRateLimiter(
    deps.store,
    { name: "signed-documents-verify", limit: 60, windowMs: HOUR / 6 },
    deps.now,
  );
  const keyReads = createRateLimiter(
    deps.store,
    { name: "signed-documents-keys", limit: 120, windowMs: HOUR / 6 },
    deps.now,
  );
  return new Elysia({ name: "signed-documents", prefix: "/api/v1/signed-documents" })
    .use(deps.rateLimiting)
    .use(deps.guard)
    .get(
      "/offer-letters/:applicationId/",
      async ({ actor, params }) =>
        pdfResponse(await offerLetter(deps, actor, params.applicationId), "offer-letter"),
      {
        auth: true,
        rateLimit: { key: "user", limiter: issues },
        params: OfferLetterParams,
        response: problems("NOT_FOUND", "OFFER_LETTER_NOT_AVAILABLE", "RATE_LIMITED"),
        detail: {
          tags,
          summary: "The offer letter of an application, a signed PDF (its applicant, staff)",
          description:
            "Offered, conditionally offered, accepted or enrolled applications (409 OFFER_LETTER_NOT_AVAILABLE otherwise): applicant, programme, intake, conditions and the response deadline. Asked again while none of that changed, the same document (same bytes, same signature) is returned; a change issues a new one. The Ed25519 signature over the file's exact bytes comes in the headers; the document's id and how to check it are printed on it. 60 per hour per account.",
          security: readSecurity,
          responses: pdfDownload("The signed offer letter, Content-Disposition: attachment"),
        },
      },
    )
    .get(
      "/receipts/:paymentId/",
      async ({ actor, params }) =>
        pdfResponse(await paymentReceipt(deps, actor, params.paymentId), "receipt"),
      {
        auth: true,
        rateLimit: { key: "user", limiter: issues },
        params: ReceiptParams,
        response: problems("NOT_FOUND", "RECEIPT_NOT_AVAILABLE", "RATE_LIMITED"),
        detail: {
          tags,
          summary: "The receipt of a successful payment, a signed PDF (its applicant, staff)",
          description:
            "What `GET /api/v1/payments/{id}/receipt/` says, as a PDF signed like offer letters; a refund since the last one issues a new one. 60 per hour per account.",
          security: readSecurity,
          responses: pdfDownload("The signed receipt, Content-Disposition: attachment"),
        },
      },
    )
    .post("/verify/", async ({ request }) => verifyBytes(deps.db, await readUpload(request)), {
      rateLimit: { key: "ip", limiter: checks },
      parse: () => RAW,
      response: {
        200: Verification,
        ...problems("BAD_REQUEST", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "RATE_LIMITED"),
      },
      detail: {
        tags,
        summary: "Check a letter or receipt: is this PDF, byte for byte, one issued here? (public)",
        description:
          "The PDF as the form field `file` (multipart/form-data), at most 2 MiB. `valid` only when its SHA-256 is that of a document issued here and the recorded Ed25519 signature holds over these bytes; then `document` says what it is (kind, id, when issued, signature, key). A PDF changed in one byte is `unknown_document`. No sign-in; 60 per 10 minutes per client address.",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: { type: "object", required: ["file"], properties: { file: pdfBinary } },
            },
          },
        },
      },
    })
    .get("/verify/:id/", ({ params, query }) => verifyById(deps.db, params.id, query.sha256), {
      rateLimit: { key: "ip", limiter: checks },
      params: IdParams,
      query: VerifyQuery,
      response: { 200: Verification, ...problems("RATE_LIMITED") },
      detail: {
        tags,
        summary: "Check a document by the id printed on it and the SHA-256 of the file (public)",
        description:
          "`valid` when the document exists and the file's SHA-256 is the one it was issued with (and its signature holds). The signature and key id returned let anyone check the file offline against `/keys/`. No sign-in; 60 per 10 minutes per client address (shared with the upload check).",
      },
    })
    .get("/keys/", () => publicKeys(deps.db, deps.signer), {
      rateLimit: { key: "ip", limiter: keyReads },
      response: { 200: KeySet, ...problems("RATE_LIMITED") },
      detail: {
        tags,
        summary: "The public keys letters and receipts are signed with, as JWK (public)",
        description:
          "Ed25519 (`kty` OKP, `crv` Ed25519), `kid` the RFC 7638 thumbprint each document names. Keys replaced since stay listed, so what they signed still verifies; `current` marks the one signing now. 120 per 10 minutes per client address.",
      },
    });
};
