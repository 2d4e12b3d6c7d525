import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toIso } from "../../db/dialect.ts";
import { verifiedStream } from "../../lib/files/checksum.ts";
import { contentDisposition, sanitizeFilename } from "../../lib/files/filename.ts";
import { receiveUpload } from "../../lib/files/multipart.ts";
import { isoAt } from "../../lib/ids.ts";
import { notFound, problem } from "../../problems.ts";
import { digestOf, newLinkToken } from "../account/service.ts";
import { enqueueEmail } from "../outbox/service.ts";
import type { User } from "../users/model.ts";
import { mailboxKey, normalizeEmail } from "../users/service.ts";
import { STATUSES } from "../workflow/model.ts";
import { isFinal } from "../workflow/service.ts";
import { openApplication, readableApplication, sameNotFound } from "./internal/access.ts";
import { readable } from "./internal/content.ts";
import {
  LINK_LIFETIME_MS,
  MAX_REFEREES,
  MAX_REMINDERS,
  type ReferencesDeps,
} from "./internal/deps.ts";
import { referenceReminderEmail, referenceRequestEmail } from "./internal/emails.ts";
import { assertPdf, liveRequest, record } from "./internal/link.ts";
import {
  claimReminder,
  deleteReference,
  dueReminders,
  findReference,
  invitationFacts,
  listReferences,
  type Received,
  toContent,
  toReference,
} from "./internal/queries.ts";
import { assertNameable, insertRequest } from "./internal/referees.ts";
import {
  type LinkText,
  REFERENCE_TEXT_MAX,
  REFERENCE_TEXT_MIN,
  type RefereeCreate,
  type RefereeInvitation,
  type Reference,
  type ReferenceContent,
  type ReferenceList,
} from "./model.ts";

/*
 * References (issue 19): the applicant names referees; each is emailed a single-use link to a
 * portal page where, without an account, they write the reference or upload it as a PDF.
 * Referees who have not answered are reminded by the background pass. Applicants see each
 * request's status, never its content; admins and the reviewers assigned read it.
 */

export {
  LINK_LIFETIME_MS as REFERENCE_LINK_LIFETIME_MS,
  MAX_REFEREES,
  MAX_REMINDERS,
  REFEREES_PER_HOUR,
  type ReferenceSettings,
  type ReferencesDeps,
} from "./internal/deps.ts";
/** The portal page the referee's link opens (the web app names it too). */
export { REFERENCE_PAGE } from "./internal/emails.ts";

/** Where a reference is read: the Location of a new one. */
export { referencePath } from "./internal/queries.ts";

/**
 * The applicant names a referee: the request is written and the referee emailed a link, in one
 * transaction. Never the applicant's own: addresses are compared by the mailbox they reach
 * (`mailboxKey`: case, `+tag`, Gmail's dots), so `ada+ref@` is Ada.
 */
export async function addReferee(
  deps: ReferencesDeps,
  applicant: User,
  body: RefereeCreate,
): Promise<Reference> {
  const email = normalizeEmail(body.email);
  if (mailboxKey(email) === mailboxKey(applicant.email)) {
    throw problem("REFEREE_IS_APPLICANT", {
      detail: "A referee must be someone else: this address reaches your own mailbox",
      errors: [{ path: "/body/email", message: "must be the referee's address, not yours" }],
    });
  }
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const facts = await openApplication(tx, body.applicationId, applicant, deps.db.dialect);
    await assertNameable(tx, facts.id, applicant, email);
    const token = newLinkToken();
    const expiresAt = isoAt(nowMs + LINK_LIFETIME_MS);
    const link = { hash: digestOf(token), expiresAt };
    const row = await insertRequest(tx, facts.id, body, email, link, applicant.id, at);
    const about = await invitationFacts(tx, facts.id);
    if (!about) throw notFound("Application");
    const letter = referenceRequestEmail(
      {
        refereeName: row.referee_name,
        applicantName: about.full_name,
        programName: about.program_name,
        term: about.term,
        expiresAt,
      },
      deps.portalUrl,
      token,
    );
    await enqueueEmail(tx, { applicationId: facts.id, to: email, ...letter }, at);
    return toReference(row);
  });
}

/**
 * The applicant removes a referee who has not answered yet: the request and its link end. A
 * received reference stays (staff may already have read it).
 */
export async function removeReferee(
  deps: ReferencesDeps,
  applicant: User,
  referenceId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await findReference(tx, referenceId);
    if (!row) throw notFound("Reference");
    await openApplication(tx, row.application_id, applicant, deps.db.dialect).catch(
      sameNotFound("Reference"),
    );
    if (row.received_at !== null) {
      throw problem("REFERENCE_RECEIVED", {
        detail: "This referee has already sent the reference; it can no longer be removed",
      });
    }
    await deleteReference(tx, row.id);
  });
}

/** An application's requests with their status (never their content). */
export const listForApplication = (
  deps: ReferencesDeps,
  viewer: User,
  applicationId: string,
): Promise<ReferenceList> =>
  deps.db.run(async (sql) => {
    const facts = await readableApplication(sql, applicationId, viewer);
    const rows = await listReferences(sql, facts.id);
    return {
      applicationId: facts.id,
      maxReferees: MAX_REFEREES,
      references: rows.map(toReference),
    };
  });

/** Staff read the reference itself (text or the file's metadata). */
export const getContent = async (
  deps: ReferencesDeps,
  viewer: User,
  id: string,
): Promise<ReferenceContent> => toContent(await readable(deps, viewer, id));

/** Staff download the uploaded PDF, streamed and checked against its SHA-256. */
export async function openFile(deps: ReferencesDeps, viewer: User, id: string) {
  const row = await readable(deps, viewer, id);
  if (!row.storage_key || !row.sha256 || !row.file_name) throw notFound("Reference file");
  const blob = await deps.storage.read(row.storage_key);
  // The database lists it, so its absence is the server's fault (a 500, logged), not a 404.
  if (!blob) throw new Error(`reference ${row.id}: stored file ${row.storage_key} is missing`);
  return {
    file: {
      disposition: contentDisposition(row.file_name),
      size: Number(row.size_bytes),
      sha256: row.sha256,
    },
    body: verifiedStream(blob.stream(), row.sha256),
  };
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

/** The reference written in the form. */
export async function submitText(deps: ReferencesDeps, body: LinkText): Promise<void> {
  const text = body.text.trim();
  if (text.length < REFERENCE_TEXT_MIN) {
    throw invalidField(
      "/body/text",
      `must be at least ${REFERENCE_TEXT_MIN} characters`,
      "minLength",
      REFERENCE_TEXT_MIN,
    );
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
  if (!file) throw invalidField("/body/file", "is required", "required");
  const token = fields.token ?? "";
  let received: Received;
  try {
    if (!token) throw invalidField("/body/token", "is required", "required");
    await deps.db.run((sql) => liveRequest(sql, token, deps.now()));
    assertPdf(file);
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

/** Applications still deciding: a closed one needs no reference, so its referees hear nothing. */
const DECIDING = STATUSES.filter((status) => !isFinal(status));

export type RefereeRemindersDeps = {
  db: Db;
  now: () => number;
  /** The web portal's base URL: the reminder carries a new link to its reference page. */
  portalUrl: string;
  /** A referee who has not answered is reminded this long after the last email. */
  reminderIntervalMs: number;
};

/**
 * Reminds each referee who has not answered `reminderIntervalMs` after the last email, at most
 * MAX_REMINDERS times, while the application is still deciding. Each reminder carries a new
 * link (the token is only stored hashed, so the old one cannot be sent again) and the old one
 * dies. A claim counts the reminder in the statement that replaces the link, so two passes or
 * replicas never remind the same referee twice in one interval; nothing after receipt.
 */
export async function sendRefereeReminders(
  deps: RefereeRemindersDeps,
  limit = 200,
): Promise<number> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const due = await deps.db.run((sql) =>
    dueReminders(sql, isoAt(nowMs - deps.reminderIntervalMs), MAX_REMINDERS, DECIDING, limit),
  );
  let sent = 0;
  for (const row of due) {
    const token = newLinkToken();
    const expiresAt = isoAt(nowMs + LINK_LIFETIME_MS);
    const done = await deps.db.transaction(async (tx) => {
      const seen = Number(row.reminders_sent);
      if (!(await claimReminder(tx, row.id, seen, { hash: digestOf(token), expiresAt }, at))) {
        return false;
      }
      const email = referenceReminderEmail(
        {
          refereeName: row.referee_name,
          applicantName: row.applicant_name,
          programName: row.program_name,
          term: row.term,
          expiresAt,
        },
        deps.portalUrl,
        token,
      );
      await enqueueEmail(
        tx,
        { applicationId: row.application_id, to: row.referee_email, ...email },
        at,
      );
      return true;
    });
    if (done) sent++;
  }
  return sent;
}

/**
 * An erased applicant's references go with their applications' content (data rights): the
 * rows (referees' names and addresses, what they wrote) are deleted here; the uploaded files'
 * storage keys are returned for the caller to delete after its commit.
 */
export async function eraseReferences(tx: SQL, applicantId: string): Promise<string[]> {
  const files = (await tx`SELECT storage_key FROM reference_requests
    WHERE storage_key IS NOT NULL AND application_id IN
      (SELECT id FROM applications WHERE applicant_id = ${applicantId})`) as {
    storage_key: string;
  }[];
  await tx`DELETE FROM reference_requests WHERE application_id IN
    (SELECT id FROM applications WHERE applicant_id = ${applicantId})`;
  return files.map((file) => file.storage_key);
}
