import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { toIso } from "../../../db/dialect.ts";
import { problem } from "../../../problems.ts";
import { digestOf } from "../../account/service.ts";
import { classify, receiveUpload, sanitizeFilename } from "../../documents/service.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import { isFinal } from "../../workflow/service.ts";
import {
  type LinkText,
  REFERENCE_TEXT_MAX,
  REFERENCE_TEXT_MIN,
  type RefereeInvitation,
} from "../model.ts";
import {
  findByLiveToken,
  invitationFacts,
  type Received,
  type ReferenceRow,
  receiveReference,
} from "../queries.ts";
import type { ReferencesDeps } from "./deps.ts";

/*
 * The referee's side: no account, only the emailed link's token, posted in a request body
 * (never in a URL path, which the request log records). The token is looked up by its SHA-256;
 * the statement that records the reference also kills the link, so it works exactly once.
 */

const invalidLink = () =>
  problem("INVALID_REFERENCE_LINK", {
    detail:
      "This reference link is invalid, has expired, was replaced by a newer one or was already used",
  });

type Live = { row: ReferenceRow; about: NonNullable<Awaited<ReturnType<typeof invitationFacts>>> };

/** The live request behind the token, for an application still deciding; refused otherwise. */
async function liveRequest(sql: SQL, token: string, nowMs: number): Promise<Live> {
  const row = await findByLiveToken(sql, digestOf(token), nowMs);
  if (!row) throw invalidLink();
  const about = await invitationFacts(sql, row.application_id);
  if (!about) throw invalidLink();
  if (isFinal(about.status as ApplicationStatus)) {
    throw problem("REFERENCES_CLOSED", {
      detail: "This application is closed: no reference is needed any more. Thank you.",
    });
  }
  return { row, about };
}

/** What the referee's page shows; opening the page does not use the link. */
export async function openLink(deps: ReferencesDeps, token: string): Promise<RefereeInvitation> {
  const { row, about } = await deps.db.run((sql) => liveRequest(sql, token, deps.now()));
  return {
    refereeName: row.referee_name,
    applicantName: about.full_name,
    programName: about.program_name,
    intakeTerm: about.term,
    expiresAt: toIso(row.token_expires_at),
    textMinLength: REFERENCE_TEXT_MIN,
    textMaxLength: REFERENCE_TEXT_MAX,
    maxFileBytes: deps.limits.maxFileBytes,
  };
}

async function record(deps: ReferencesDeps, token: string, received: Received): Promise<void> {
  const nowMs = deps.now();
  await deps.db.transaction(async (tx) => {
    await liveRequest(tx, token, nowMs);
    if (!(await receiveReference(tx, digestOf(token), received, nowMs))) throw invalidLink();
  });
}

/** The reference written in the form. */
export async function submitText(deps: ReferencesDeps, body: LinkText): Promise<void> {
  const text = body.text.trim();
  if (text.length < REFERENCE_TEXT_MIN) {
    throw invalidField("/body/text", `must be at least ${REFERENCE_TEXT_MIN} characters`);
  }
  await record(deps, body.token, { kind: "text", text });
}

/**
 * The reference uploaded as a PDF (multipart `token`, `file`), with the documents' checks: the
 * size limit while streaming, the type by the bytes, the checksum read back from storage. The
 * link is checked before the file is kept; a file refused for any reason is deleted.
 */
export async function submitFile(deps: ReferencesDeps, request: Request): Promise<void> {
  const { fields, file } = await receiveUpload(request, deps.storage, deps.limits);
  if (!file) throw invalidField("/body/file", "is required");
  const token = fields.token ?? "";
  let received: Received;
  try {
    if (!token) throw invalidField("/body/token", "is required");
    await deps.db.run((sql) => liveRequest(sql, token, deps.now()));
    const verdict = classify(file.head, file.tail, file.size);
    if (!verdict.ok && verdict.reason === "empty") {
      throw problem("DOCUMENT_EMPTY", { detail: verdict.detail });
    }
    if (!verdict.ok && verdict.reason === "truncated") {
      throw problem("DOCUMENT_TRUNCATED", { detail: verdict.detail });
    }
    if (!verdict.ok || verdict.mediaType !== "application/pdf") {
      throw problem("DOCUMENT_TYPE_NOT_ALLOWED", { detail: "A reference is uploaded as a PDF" });
    }
    await file.writer.commit(file.sha256);
    received = {
      kind: "file",
      fileName: sanitizeFilename(file.clientName, "application/pdf"),
      mediaType: "application/pdf",
      size: file.size,
      sha256: file.sha256,
      storageKey: file.writer.key,
    };
  } catch (error) {
    await file.writer.abort();
    throw error;
  }
  try {
    await record(deps, token, received);
  } catch (error) {
    await deps.storage.remove(file.writer.key).catch(() => {});
    throw error;
  }
}
