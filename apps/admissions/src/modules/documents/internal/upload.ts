import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Verdict } from "../../../lib/files/file-type.ts";
import { sanitizeFilename } from "../../../lib/files/filename.ts";
import type { ReceivedFile } from "../../../lib/files/multipart.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { type ApplicationFacts, isClosed, ownApplication } from "../../applications/service.ts";
import { DOCUMENT_TYPES, EVIDENCE_TYPE, type StoredDocumentType } from "../../catalog/model.ts";
import { recordEvent } from "../../events/service.ts";
import type { User } from "../../users/model.ts";
import type { Document } from "../model.ts";
import type { DocumentsDeps } from "./deps.ts";
import { countOf, type DocumentRow, toDocument } from "./queries.ts";

/** Uploads go to applications that are not final, up to the per-application cap. */
export async function assertAcceptsUploads(sql: SQL, facts: ApplicationFacts, deps: DocumentsDeps) {
  if (isClosed(facts)) {
    throw problem("DOCUMENTS_CLOSED", {
      detail: `The application is ${facts.status}; it takes no more documents`,
    });
  }
  if ((await countOf(sql, facts.id)) >= deps.maxPerApplication) {
    throw problem("DOCUMENT_LIMIT_REACHED", {
      detail: `An application holds at most ${deps.maxPerApplication} documents; delete one first`,
    });
  }
}

/** Evidence for an offer's conditions is taken while the offer stands (offers' OPEN statuses). */
const TAKES_EVIDENCE: ReadonlySet<string> = new Set(["conditionally_offered", "accepted"]);

export function documentTypeOf(
  value: string | undefined,
  facts: ApplicationFacts,
): StoredDocumentType {
  if (value === undefined || value === "") {
    throw invalidField("/body/type", "is required", "required");
  }
  if (value === EVIDENCE_TYPE) {
    if (TAKES_EVIDENCE.has(facts.status)) return EVIDENCE_TYPE;
    throw invalidField(
      "/body/type",
      "takes evidence only while a conditional offer stands",
      "notAllowed",
    );
  }
  const type = DOCUMENT_TYPES.find((known) => known === value);
  if (!type || !facts.requiredDocuments.includes(type)) {
    const asked = facts.requiredDocuments.join(", ") || "none";
    throw invalidField("/body/type", `must be a type the program asks for (${asked})`, "enum");
  }
  return type;
}

export function assertAcceptable(verdict: Verdict): asserts verdict is Verdict & { ok: true } {
  if (verdict.ok) return;
  const code = {
    empty: "DOCUMENT_EMPTY",
    truncated: "DOCUMENT_TRUNCATED",
    unknown: "DOCUMENT_TYPE_NOT_ALLOWED",
    polyglot: "DOCUMENT_TYPE_NOT_ALLOWED",
  } as const;
  throw problem(code[verdict.reason], { detail: verdict.detail });
}

export async function insertDocument(
  deps: DocumentsDeps,
  actor: User,
  applicationId: string,
  file: ReceivedFile,
  stored: { type: StoredDocumentType; mediaType: Document["mediaType"] },
): Promise<Document> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const facts = await ownApplication(tx, applicationId, actor, { dialect: deps.db.dialect });
    await assertAcceptsUploads(tx, facts, deps);
    const row: DocumentRow = {
      id: newId(),
      application_id: applicationId,
      type: stored.type,
      status: "uploaded",
      file_name: sanitizeFilename(file.clientName, stored.mediaType),
      media_type: stored.mediaType,
      size_bytes: file.size,
      sha256: file.sha256,
      storage_key: file.writer.key,
      uploaded_by: actor.id,
      review_note: null,
      reviewed_by: null,
      reviewed_at: null,
      created_at: at,
      updated_at: at,
    };
    await tx`INSERT INTO documents ${tx(row)}`;
    await recordEvent(
      tx,
      {
        type: "document.uploaded",
        applicationId,
        subject: { type: "document", id: row.id },
        data: { documentType: row.type, status: row.status, sizeBytes: row.size_bytes },
      },
      at,
    );
    return toDocument(row, actor);
  });
}
