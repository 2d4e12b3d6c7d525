import type { SQL } from "bun";
import { isUniqueViolation } from "../../../db/dialect.ts";
import { newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import { isEmailVerified, mailboxKey } from "../../users/service.ts";
import type { RefereeCreate } from "../model.ts";
import { MAX_REFEREES } from "./deps.ts";
import { insertReference, listReferences, type ReferenceRow } from "./queries.ts";

/* The referees an applicant names: who may be named, and the request's row. */

const sameReferee = () =>
  problem("REFEREE_EXISTS", { detail: "This referee is already named on the application" });

/**
 * Only a verified applicant names referees (each request emails a third party), at most
 * MAX_REFEREES per application, one request per referee's mailbox. The caller holds the
 * application's lock, so no other request adds a referee meanwhile.
 */
export async function assertNameable(
  tx: SQL,
  applicationId: string,
  applicant: User,
  email: string,
): Promise<void> {
  if (!(await isEmailVerified(tx, applicant.id))) {
    throw problem("EMAIL_NOT_VERIFIED", {
      detail: "Verify your email address before naming referees: we email them on your behalf",
    });
  }
  const named = await listReferences(tx, applicationId);
  if (named.some((row) => mailboxKey(row.referee_email) === mailboxKey(email))) {
    throw sameReferee();
  }
  if (named.length >= MAX_REFEREES) {
    throw problem("REFEREE_LIMIT_REACHED", {
      detail: `An application names at most ${MAX_REFEREES} referees; remove one first`,
    });
  }
}

/** The new request, its link's token stored hashed (409 for a referee named meanwhile). */
export async function insertRequest(
  tx: SQL,
  applicationId: string,
  body: RefereeCreate,
  email: string,
  link: { hash: string; expiresAt: string },
  createdBy: string,
  at: string,
): Promise<ReferenceRow> {
  const row: ReferenceRow = {
    id: newId(),
    application_id: applicationId,
    referee_name: body.name.trim(),
    referee_email: email,
    relationship: body.relationship.trim(),
    status: "requested",
    token_hash: link.hash,
    token_expires_at: link.expiresAt,
    reminders_sent: 0,
    last_sent_at: at,
    body_text: null,
    file_name: null,
    media_type: null,
    size_bytes: null,
    sha256: null,
    storage_key: null,
    received_at: null,
    created_by: createdBy,
    created_at: at,
    updated_at: at,
  };
  try {
    await insertReference(tx, row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw sameReferee();
  }
  return row;
}
