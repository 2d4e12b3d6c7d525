import { isUniqueViolation } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { digestOf, newLinkToken } from "../../account/service.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import type { User } from "../../users/model.ts";
import { isEmailVerified, mailboxKey, normalizeEmail } from "../../users/service.ts";
import type { RefereeCreate, Reference, ReferenceList } from "../model.ts";
import {
  deleteReference,
  findReference,
  insertReference,
  invitationFacts,
  listReferences,
  type ReferenceRow,
  toReference,
} from "../queries.ts";
import { openApplication, readableApplication, sameNotFound } from "./access.ts";
import { LINK_LIFETIME_MS, MAX_REFEREES, type ReferencesDeps } from "./deps.ts";
import { referenceRequestEmail } from "./emails.ts";

const sameReferee = () =>
  problem("REFEREE_EXISTS", { detail: "This referee is already named on the application" });

/**
 * The applicant names a referee: the request is written and the referee emailed a link, in one
 * transaction. Only a verified applicant may (each request emails a third party), at most
 * MAX_REFEREES per application, one request per referee's mailbox, never the applicant's own:
 * addresses are compared by the mailbox they reach (`mailboxKey`: case, `+tag`, Gmail's dots),
 * so `ada+ref@` is Ada.
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
    if (!(await isEmailVerified(tx, applicant.id))) {
      throw problem("EMAIL_NOT_VERIFIED", {
        detail: "Verify your email address before naming referees: we email them on your behalf",
      });
    }
    // The application is locked (openApplication): no other request adds a referee meanwhile.
    const named = await listReferences(tx, facts.id);
    if (named.some((row) => mailboxKey(row.referee_email) === mailboxKey(email))) {
      throw sameReferee();
    }
    if (named.length >= MAX_REFEREES) {
      throw problem("REFEREE_LIMIT_REACHED", {
        detail: `An application names at most ${MAX_REFEREES} referees; remove one first`,
      });
    }
    const token = newLinkToken();
    const expiresAt = isoAt(nowMs + LINK_LIFETIME_MS);
    const row: ReferenceRow = {
      id: newId(),
      application_id: facts.id,
      referee_name: body.name.trim(),
      referee_email: email,
      relationship: body.relationship.trim(),
      status: "requested",
      token_hash: digestOf(token),
      token_expires_at: expiresAt,
      reminders_sent: 0,
      last_sent_at: at,
      body_text: null,
      file_name: null,
      media_type: null,
      size_bytes: null,
      sha256: null,
      storage_key: null,
      received_at: null,
      created_by: applicant.id,
      created_at: at,
      updated_at: at,
    };
    try {
      await insertReference(tx, row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw sameReferee();
    }
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
