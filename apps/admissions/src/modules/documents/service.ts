import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { verifiedStream } from "../../lib/files/checksum.ts";
import { classify } from "../../lib/files/file-type.ts";
import { blindFilename } from "../../lib/files/filename.ts";
import { receiveUpload } from "../../lib/files/multipart.ts";
import { isoAt } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { DocumentChecklist } from "../applications/service.ts";
import { ownApplication, visibleApplication } from "../applications/service.ts";
import type { DocumentType, StoredDocumentType } from "../catalog/model.ts";
import { recordEvent } from "../events/service.ts";
import type { User } from "../users/model.ts";
import { isBlindFor, recordAudit } from "../workflow/service.ts";
import type { DocumentsDeps } from "./internal/deps.ts";
import { countOf, type DocumentRow, toChecklist, toDocument } from "./internal/queries.ts";
import {
  assertAcceptable,
  assertAcceptsUploads,
  documentTypeOf,
  insertDocument,
} from "./internal/upload.ts";
import type { Document, ReviewBody } from "./model.ts";

/** Where a document is read: the Location of a new one. */
export { documentPath } from "./internal/queries.ts";
export type { DocumentsDeps };

/** Under blind review a reviewer reads a neutral file name, never the one uploaded. */
async function forViewer(sql: SQL, viewer: User, applicationId: string, rows: DocumentRow[]) {
  if (!(await isBlindFor(sql, viewer, applicationId))) return rows;
  return rows.map((row) => ({ ...row, file_name: blindFilename(row) }));
}

export async function findDocument(sql: SQL, applicationId: string, documentId: string) {
  const [row] = (await sql`SELECT * FROM documents
    WHERE id = ${documentId} AND application_id = ${applicationId}`) as DocumentRow[];
  if (!row) throw notFound("Document");
  return row;
}

export async function listDocuments(
  deps: DocumentsDeps,
  viewer: User,
  applicationId: string,
  page: Page,
  requestUrl: string,
) {
  return deps.db.run(async (sql) => {
    await visibleApplication(sql, applicationId, viewer);
    const count = await countOf(sql, applicationId);
    const rows = (await sql`SELECT * FROM documents WHERE application_id = ${applicationId}
      ORDER BY created_at, id LIMIT ${page.limit} OFFSET ${page.offset}`) as DocumentRow[];
    return toPage(
      requestUrl,
      page,
      count,
      (await forViewer(sql, viewer, applicationId, rows)).map((row) => toDocument(row, viewer)),
    );
  });
}

export const getDocument = (deps: DocumentsDeps, viewer: User, appId: string, docId: string) =>
  deps.db.run(async (sql) => {
    await visibleApplication(sql, appId, viewer);
    const [row] = await forViewer(sql, viewer, appId, [await findDocument(sql, appId, docId)]);
    if (!row) throw notFound("Document");
    return toDocument(row, viewer);
  });

/** The stored bytes, streamed and checked against their SHA-256, and what the headers need. */
export async function openDocument(
  deps: DocumentsDeps,
  viewer: User,
  applicationId: string,
  documentId: string,
) {
  const row = await deps.db.run(async (sql) => {
    await visibleApplication(sql, applicationId, viewer);
    const [found] = await forViewer(sql, viewer, applicationId, [
      await findDocument(sql, applicationId, documentId),
    ]);
    if (!found) throw notFound("Document");
    return found;
  });
  const blob = await deps.storage.read(row.storage_key);
  // The database lists it, so its absence is the server's fault (a 500, logged), not a 404.
  if (!blob) throw new Error(`document ${row.id}: stored file ${row.storage_key} is missing`);
  return { row, body: verifiedStream(blob.stream(), row.sha256) };
}

/** The applicant removes a document while the application is still a draft. */
export async function deleteDocument(
  deps: DocumentsDeps,
  actor: User,
  applicationId: string,
  documentId: string,
): Promise<void> {
  const row = await deps.db.transaction(async (tx) => {
    const facts = await ownApplication(tx, applicationId, actor, { dialect: deps.db.dialect });
    if (facts.status !== "draft") {
      throw problem("APPLICATION_NOT_EDITABLE", {
        detail: `The application is ${facts.status}; documents can only be deleted from drafts`,
      });
    }
    const found = await findDocument(tx, applicationId, documentId);
    await tx`DELETE FROM documents WHERE id = ${documentId}`;
    await recordEvent(
      tx,
      {
        type: "document.deleted",
        applicationId,
        subject: { type: "document", id: documentId },
        data: { documentType: found.type },
      },
      isoAt(deps.now()),
    );
    return found;
  });
  // After the commit: a failure here leaves an unreferenced file, never a row without its file.
  await deps.storage.remove(row.storage_key).catch((err: unknown) => {
    deps.logger.error("document file not removed", { documentId, err });
  });
}

/** Staff verify a document, or reject it saying what to fix. */
export async function reviewDocument(
  deps: DocumentsDeps,
  staff: User,
  applicationId: string,
  documentId: string,
  body: ReviewBody,
  clientIp: string | null = null,
): Promise<Document> {
  const note = body.note?.trim() || null;
  if (body.decision === "rejected" && !note) {
    throw invalidField("/body/note", "is required when rejecting: say what to fix", "required");
  }
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    await visibleApplication(tx, applicationId, staff);
    await findDocument(tx, applicationId, documentId);
    await tx`UPDATE documents SET ${tx({
      status: body.decision,
      review_note: note,
      reviewed_by: staff.id,
      reviewed_at: at,
      updated_at: at,
    })} WHERE id = ${documentId}`;
    await recordAudit(
      tx,
      { actor: staff, clientIp },
      {
        action: "document.reviewed",
        applicationId,
        subject: { type: "document", id: documentId },
        details: { decision: body.decision, note },
      },
      at,
    );
    await recordEvent(
      tx,
      {
        type: "document.reviewed",
        applicationId,
        subject: { type: "document", id: documentId },
        data: { status: body.decision },
      },
      at,
    );
    const [row] = await forViewer(tx, staff, applicationId, [
      await findDocument(tx, applicationId, documentId),
    ]);
    if (!row) throw notFound("Document");
    return toDocument(row, staff);
  });
}

export const getChecklist = (deps: DocumentsDeps, viewer: User, applicationId: string) =>
  deps.db.run(async (sql) => {
    const facts = await visibleApplication(sql, applicationId, viewer);
    const rows = (await sql`SELECT id, type, status FROM documents
      WHERE application_id = ${applicationId} ORDER BY created_at, id`) as DocumentRow[];
    return toChecklist(applicationId, facts.requiredDocuments, rows);
  });

/** The submission guard: a required type is on file when a document of it is not rejected. */
export const documentChecklist: DocumentChecklist = {
  async missingDocuments(sql, applicationId, required) {
    const rows = (await sql`SELECT DISTINCT type FROM documents
      WHERE application_id = ${applicationId} AND status IN ('uploaded', 'verified')`) as {
      type: DocumentType;
    }[];
    const onFile = new Set(rows.map((row) => row.type));
    return required.filter((type) => !onFile.has(type));
  },
};

/**
 * The applicant attaches a file: ownership, status and the cap are checked before the body is
 * read; the file streams to storage; its type is decided by its bytes; then the row is written
 * in a transaction that checks again. A file that fails any check is deleted.
 */
export async function uploadDocument(
  deps: DocumentsDeps,
  actor: User,
  applicationId: string,
  request: Request,
): Promise<Document> {
  const facts = await deps.db.run(async (sql) => {
    const own = await ownApplication(sql, applicationId, actor);
    await assertAcceptsUploads(sql, own, deps);
    return own;
  });
  const { fields, file } = await receiveUpload(request, deps.storage, deps.limits);
  if (!file) throw invalidField("/body/file", "is required", "required");
  let stored: { type: StoredDocumentType; mediaType: Document["mediaType"] };
  try {
    const type = documentTypeOf(fields.type, facts);
    const verdict = classify(file.head, file.tail, file.size);
    assertAcceptable(verdict);
    await file.writer.commit(file.sha256);
    stored = { type, mediaType: verdict.mediaType };
  } catch (error) {
    await file.writer.abort();
    throw error;
  }
  try {
    return await insertDocument(deps, actor, applicationId, file, stored);
  } catch (error) {
    await deps.storage.remove(file.writer.key).catch(() => {});
    throw error;
  }
}
