import type { SQL } from "bun";
import { eraseProfile } from "../../profile/service.ts";
import { eraseReferences } from "../../references/service.ts";
import type { ApplicationStatus, MoveDeps, Origin } from "../../workflow/model.ts";
import { isFinal, moveApplication } from "../../workflow/service.ts";

/*
 * Where the platform keeps an applicant's personal data, and what an erasure does to each
 * (docs/admissions.md, "Data rights"). One list, so a table that gains personal data has one
 * place to be added to:
 *
 *   users                 name and email → pseudonyms, password → unusable, account inactive
 *   profiles, history     deleted
 *   applications          not final → withdrawn (seats freed); form text, profile copy, offer
 *                         conditions wiped; the rows stay (counts, payments refer to them)
 *   transitions           reasons wiped; the applicant's own client addresses removed
 *   documents             rows deleted here, files deleted from storage after the commit
 *   reference_requests    rows deleted (referees and what they wrote), files as documents'
 *   reviews, conflicts,   what staff wrote about the person (comments, reasons) wiped; scores
 *   fee waivers,          and recommendations stay (interviews: the applicant's notes, the
 *   interviews            reasons and the panel's comments)
 *   email_outbox          address, subject, body, links, attachment replaced; unsent dropped
 *   audit_log             details cut to non-personal keys, the person's own address removed,
 *                         `redacted_at` stamped, the content hash's salt deleted (the hash
 *                         chain stays whole: docs/admissions.md, "Tamper-evident audit log")
 *   signed_documents      the PDFs' bytes deleted; id, hash and signature kept (a letter
 *                         the person holds still verifies)
 *   data_requests         the person's reasons wiped
 *   payments, refunds     kept as they are until `retain_until`, then deleted (purge pass)
 */

export const ERASED = "[erased]";
export const erasedEmail = (userId: string) => `erased+${userId}@invalid`;
export const erasedName = (userId: string) => `Erased user ${userId}`;
const WITHDRAWAL_REASON = "Personal data erased at the applicant's request";

/** Audit details that say what happened without saying anything about anyone. */
const NEUTRAL_DETAILS = new Set([
  "from",
  "to",
  "via",
  "batchId",
  "decision",
  "recommendation",
  "waitlistPosition",
  "amount",
  "currency",
  "provider",
  "status",
  "requestId",
  "applicationsWithdrawn",
  "documentsDeleted",
]);

export type Erasure = {
  userId: string;
  email: string;
  /** An argon2 hash of a random secret nobody knows (`Bun.password.verify` still works on it). */
  unusablePasswordHash: string;
  /** Who withdraws the open applications: the applicant (immediate erasure) or an admin. */
  origin: Origin;
  at: string;
  nowMs: number;
};

export type ErasureOutcome = {
  storageKeys: string[];
  applicationsWithdrawn: number;
  documentsDeleted: number;
};

/** Everything above, in the caller's transaction: all of it happens, or none. */
export async function eraseApplicant(tx: SQL, move: MoveDeps, e: Erasure): Promise<ErasureOutcome> {
  const theirs = tx`SELECT id FROM applications WHERE applicant_id = ${e.userId}`;
  const applications = (await tx`SELECT id, status FROM applications
    WHERE applicant_id = ${e.userId} ORDER BY created_at, id`) as {
    id: string;
    status: ApplicationStatus;
  }[];
  let applicationsWithdrawn = 0;
  for (const application of applications) {
    if (isFinal(application.status)) continue;
    const request = { to: "withdrawn" as const, reason: WITHDRAWAL_REASON, preconditions: [] };
    await moveApplication(tx, move, e.origin, application.id, request, e.nowMs);
    applicationsWithdrawn++;
  }

  const documents = (await tx`SELECT storage_key FROM documents
    WHERE application_id IN (${theirs})`) as { storage_key: string }[];
  await tx`DELETE FROM documents WHERE application_id IN (${theirs})`;
  const referenceFiles = await eraseReferences(tx, e.userId);

  await tx`UPDATE applications SET personal_statement = '', prior_qualification = '',
      prior_institution = '', graduation_year = NULL, applicant_snapshot = NULL,
      offer_conditions = CASE WHEN offer_conditions IS NULL THEN NULL ELSE '[]' END,
      version = version + 1, updated_at = ${e.at}
    WHERE applicant_id = ${e.userId}`;
  await tx`UPDATE application_transitions SET reason = NULL WHERE application_id IN (${theirs})`;
  await tx`UPDATE application_transitions SET client_ip = NULL WHERE actor_id = ${e.userId}`;
  await tx`UPDATE reviews SET comment = '' WHERE application_id IN (${theirs})`;
  await tx`UPDATE review_conflicts SET reason = ${ERASED} WHERE application_id IN (${theirs})`;
  await tx`UPDATE fee_waivers SET reason = ${ERASED} WHERE application_id IN (${theirs})`;
  await tx`UPDATE interviews SET applicant_note = NULL,
      cancel_reason = CASE WHEN cancel_reason IS NULL THEN NULL ELSE ${ERASED} END
    WHERE application_id IN (${theirs})`;
  await tx`UPDATE interview_scores SET comment = '' WHERE interview_id IN
    (SELECT id FROM interviews WHERE application_id IN (${theirs}))`;
  await eraseProfile(tx, e.userId);

  await tx`UPDATE email_outbox SET to_address = ${erasedEmail(e.userId)}, subject = ${ERASED},
      body = ${ERASED}, links = NULL, attachment_name = NULL, attachment_type = NULL,
      attachment_content = NULL,
      last_error = CASE WHEN status = 'pending' THEN 'recipient erased' ELSE last_error END,
      status = CASE WHEN status = 'pending' THEN 'dead' ELSE status END
    WHERE to_address = ${e.email} OR application_id IN (${theirs})`;
  await redactAudit(tx, e);
  await tx`UPDATE signed_documents SET pdf_base64 = NULL WHERE owner_id = ${e.userId}`;
  await tx`UPDATE data_requests SET reason = NULL WHERE user_id = ${e.userId}`;

  await tx`UPDATE users SET ${tx({
    full_name: erasedName(e.userId),
    email: erasedEmail(e.userId),
    password_hash: e.unusablePasswordHash,
    active: false,
    updated_at: e.at,
  })} WHERE id = ${e.userId}`;
  return {
    storageKeys: [...documents.map((d) => d.storage_key), ...referenceFiles],
    applicationsWithdrawn,
    documentsDeleted: documents.length,
  };
}

async function redactAudit(tx: SQL, e: Erasure) {
  const rows = (await tx`SELECT id, actor_id, details FROM audit_log
    WHERE redacted_at IS NULL AND (actor_id = ${e.userId} OR subject_id = ${e.userId}
      OR application_id IN (SELECT id FROM applications WHERE applicant_id = ${e.userId}))`) as {
    id: string;
    actor_id: string | null;
    details: string;
  }[];
  for (const row of rows) {
    const kept = Object.entries(JSON.parse(row.details) as Record<string, unknown>).filter(
      ([key]) => NEUTRAL_DETAILS.has(key),
    );
    await tx`UPDATE audit_log SET
        details = ${JSON.stringify({ ...Object.fromEntries(kept), redacted: true })},
        client_ip = CASE WHEN actor_id = ${e.userId} THEN NULL ELSE client_ip END,
        redacted_at = ${e.at}, content_salt = NULL
      WHERE id = ${row.id}`;
  }
}
