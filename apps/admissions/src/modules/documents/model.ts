import { t } from "elysia";
import { MEDIA_TYPES } from "../../lib/files/file-type.ts";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { DocumentType, StoredDocumentType } from "../catalog/model.ts";

export const DOCUMENT_STATUSES = ["uploaded", "verified", "rejected"] as const;
export const DocumentStatus = enumOf(DOCUMENT_STATUSES);
export type DocumentStatus = typeof DocumentStatus.static;

export const CHECKLIST_STATUSES = ["missing", "uploaded", "verified", "rejected"] as const;
export const ChecklistStatus = enumOf(CHECKLIST_STATUSES);
export type ChecklistStatus = typeof ChecklistStatus.static;

export const Document = t.Object({
  id: Id,
  applicationId: Id,
  type: StoredDocumentType,
  status: DocumentStatus,
  fileName: t.String({
    description: "The uploaded file's name, sanitised; metadata only",
    examples: ["transcript.pdf"],
  }),
  mediaType: enumOf(MEDIA_TYPES, { description: "Decided from the file's bytes" }),
  size: int({ minimum: 1, description: "Bytes" }),
  sha256: t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the file, hex" }),
  uploadedAt: Timestamp,
  reviewNote: t.Nullable(t.String()),
  reviewedAt: t.Nullable(Timestamp),
  reviewedBy: t.Nullable(Id, { description: "Shown to staff only" }),
  downloadUrl: t.String({ examples: ["/api/v1/applications/…/documents/…/file/"] }),
});
export type Document = typeof Document.static;

export const DocumentPage = Paginated(Document, "An application's documents, oldest first");

export const ChecklistItem = t.Object({
  type: DocumentType,
  status: ChecklistStatus,
  documentId: t.Nullable(Id, { description: "The document that decides the status" }),
});

export const Checklist = t.Object({
  applicationId: Id,
  complete: t.Boolean({ description: "Every required type is uploaded or verified" }),
  items: t.Array(ChecklistItem),
});
export type Checklist = typeof Checklist.static;

export const ReviewBody = t.Object(
  {
    decision: enumOf(["verified", "rejected"] as const),
    note: t.Optional(
      multiLineText({ maxLength: 2_000, description: "Required when rejecting: what to fix" }),
    ),
  },
  { examples: [{ decision: "rejected", note: "The scan is cut off at the bottom" }] },
);
export type ReviewBody = typeof ReviewBody.static;

export const DocumentParams = idParams("id", "documentId");
export const DocumentListQuery = t.Object(PageQuery);

/** The multipart body, for the reference only (the route streams it itself). */
export const uploadRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["type", "file"],
        properties: {
          type: {
            type: "string" as const,
            description: "One of the program's required document types",
          },
          file: {
            type: "string" as const,
            format: "binary",
            description: "PDF, JPEG or PNG, at most 10 MiB",
          },
        },
      },
      encoding: { file: { contentType: "application/pdf, image/jpeg, image/png" } },
    },
  },
};
