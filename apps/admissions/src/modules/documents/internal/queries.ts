import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import type { MediaType } from "../../../lib/files/file-type.ts";
import type { DocumentType, StoredDocumentType } from "../../catalog/model.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { Checklist, ChecklistStatus, Document, DocumentStatus } from "../model.ts";

export type DocumentRow = {
  id: string;
  application_id: string;
  type: StoredDocumentType;
  status: DocumentStatus;
  file_name: string;
  media_type: MediaType;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: unknown;
  created_at: unknown;
  updated_at: unknown;
};

export const documentPath = (applicationId: string, documentId: string) =>
  `/api/v1/applications/${applicationId}/documents/${documentId}/`;

/** Applicants see the review's outcome and note, not which staff member made it. */
export const toDocument = (row: DocumentRow, viewer: User): Document => ({
  id: row.id,
  applicationId: row.application_id,
  type: row.type,
  status: row.status,
  fileName: row.file_name,
  mediaType: row.media_type,
  size: Number(row.size_bytes),
  sha256: row.sha256,
  uploadedAt: toIso(row.created_at),
  reviewNote: row.review_note,
  reviewedAt: toIsoOrNull(row.reviewed_at),
  reviewedBy: isStaff(viewer.role) ? row.reviewed_by : null,
  downloadUrl: `${documentPath(row.application_id, row.id)}file/`,
});

/** Of several documents of one type, the best decides: verified, then uploaded, then rejected. */
const RANK: Record<DocumentStatus, number> = { verified: 3, uploaded: 2, rejected: 1 };

/** Each required type as missing, uploaded, verified or rejected (rows oldest first). */
export function toChecklist(
  applicationId: string,
  required: readonly DocumentType[],
  rows: Pick<DocumentRow, "id" | "type" | "status">[],
): Checklist {
  const items = required.map((type) => {
    let best: Pick<DocumentRow, "id" | "status"> | null = null;
    for (const row of rows) {
      if (row.type !== type) continue;
      // `>=`: among equals the newest wins (rows are oldest first).
      if (!best || RANK[row.status] >= RANK[best.status]) best = row;
    }
    const status: ChecklistStatus = best ? best.status : "missing";
    return { type, status, documentId: best?.id ?? null };
  });
  const complete = items.every((item) => item.status === "uploaded" || item.status === "verified");
  return { applicationId, complete, items };
}

export const countOf = async (sql: SQL, applicationId: string) => {
  const [row] =
    await sql`SELECT count(*) AS n FROM documents WHERE application_id = ${applicationId}`;
  return toInt(row?.n ?? 0);
};
