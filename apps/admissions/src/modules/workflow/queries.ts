import type { SQL } from "bun";
import { type Dialect, forUpdateOf, toIso, toIsoOrNull } from "../../db/dialect.ts";
import { newId } from "../../lib/ids.ts";
import { notFound } from "../../problems.ts";
import { isStaff, type PersonalDetails, type User } from "../users/model.ts";
import { chainOnCommit, contentHash, newContentSalt } from "./internal/audit-chain.ts";
import type {
  ActorRole,
  Application,
  ApplicationStatus,
  AuditEvent,
  Origin,
  Transition,
} from "./model.ts";

export type ApplicationRow = {
  id: string;
  applicant_id: string;
  program_id: string;
  intake_id: string;
  status: ApplicationStatus;
  version: number;
  personal_statement: string;
  prior_qualification: string;
  prior_institution: string;
  graduation_year: number | null;
  created_at: unknown;
  updated_at: unknown;
  submitted_at: unknown;
  offer_respond_by: unknown;
  offer_conditions: string | null;
  waitlist_position: number | null;
  applicant_snapshot?: string | null;
  applicant_email: string;
  applicant_name: string;
  program_code: string;
  program_name: string;
  intake_term: string;
  intake_deadline: unknown;
};

/** Applications with what a reader needs beside them: applicant, program and intake names. */
export const selectApplications = (sql: SQL) => sql`SELECT a.*,
    u.email AS applicant_email, u.full_name AS applicant_name,
    p.code AS program_code, p.name AS program_name,
    i.term AS intake_term, i.deadline AS intake_deadline
  FROM applications a
  JOIN users u ON u.id = a.applicant_id
  JOIN programs p ON p.id = a.program_id
  JOIN intakes i ON i.id = a.intake_id`;

export const toApplication = (row: ApplicationRow): Application => ({
  id: row.id,
  status: row.status,
  version: Number(row.version),
  applicant: { id: row.applicant_id, email: row.applicant_email, fullName: row.applicant_name },
  program: { id: row.program_id, code: row.program_code, name: row.program_name },
  intake: { id: row.intake_id, term: row.intake_term, deadline: toIso(row.intake_deadline) },
  personalStatement: row.personal_statement,
  priorQualification: row.prior_qualification,
  priorInstitution: row.prior_institution,
  graduationYear: row.graduation_year === null ? null : Number(row.graduation_year),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
  submittedAt: toIsoOrNull(row.submitted_at),
  offer:
    row.offer_respond_by === null || row.offer_respond_by === undefined
      ? null
      : {
          respondBy: toIso(row.offer_respond_by),
          conditions: JSON.parse(row.offer_conditions ?? "[]") as string[],
        },
  waitlistPosition:
    row.status === "waitlisted" && row.waitlist_position !== null
      ? Number(row.waitlist_position)
      : null,
  applicantProfile: row.applicant_snapshot
    ? (JSON.parse(row.applicant_snapshot) as PersonalDetails)
    : null,
});

export type TransitionRow = {
  id: string;
  from_status: ApplicationStatus | null;
  to_status: ApplicationStatus;
  actor_id: string | null;
  actor_role: ActorRole;
  reason: string | null;
  reason_code?: string | null;
  client_ip: string | null;
  created_at: unknown;
};

/**
 * Staff see the whole record. Applicants see every move of their application but not which
 * staff member made it, nor anyone's address.
 */
export function toTransition(row: TransitionRow, viewer: User): Transition {
  const staff = isStaff(viewer.role);
  return {
    id: row.id,
    from: row.from_status,
    to: row.to_status,
    actor: {
      id: staff || row.actor_id === viewer.id ? row.actor_id : null,
      role: row.actor_role,
    },
    reason: row.reason,
    reasonCode: row.reason_code ?? null,
    clientIp: staff ? row.client_ip : null,
    at: toIso(row.created_at),
  };
}

export async function loadApplication(sql: SQL, id: string): Promise<Application | null> {
  const [row] = (await sql`${selectApplications(sql)} WHERE a.id = ${id}`) as ApplicationRow[];
  return row ? toApplication(row) : null;
}

/**
 * An application the viewer may see: their own, or any for staff. Anyone else gets the same
 * 404 as for an id that does not exist, so ids cannot be probed.
 */
export async function loadVisible(sql: SQL, id: string, viewer: User): Promise<Application> {
  const application = await loadApplication(sql, id);
  if (!application || (application.applicant.id !== viewer.id && !isStaff(viewer.role))) {
    throw notFound("Application");
  }
  return application;
}

/**
 * Holds the intake's row until the transaction ends (PostgreSQL; SQLite has one writer).
 * Every status change takes it first, so seat counts and waitlist positions read under it
 * cannot change before the move commits, and locks are always taken in one order: intake,
 * then application, then the running totals.
 */
export async function lockIntake(tx: SQL, dialect: Dialect, intakeId: string): Promise<void> {
  await tx`SELECT i.id FROM intakes i WHERE i.id = ${intakeId}${forUpdateOf(tx, dialect, "i")}`;
}

export async function recordTransition(
  tx: SQL,
  applicationId: string,
  from: ApplicationStatus | null,
  to: ApplicationStatus,
  origin: Origin & { reason: string | null; reasonCode?: string | null; at: string },
): Promise<void> {
  await tx`INSERT INTO application_transitions ${tx({
    id: newId(),
    application_id: applicationId,
    from_status: from,
    to_status: to,
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    reason: origin.reason,
    reason_code: origin.reasonCode ?? null,
    client_ip: origin.clientIp,
    created_at: origin.at,
  })}`;
}

/**
 * Appends one audit entry, in the caller's transaction (a `db.transaction` handle), so the log
 * holds exactly the actions that happened; it joins the hash chain as that transaction commits
 * (internal/audit-chain.ts). Nothing deletes entries, and the database refuses every UPDATE
 * but chaining and an erasure's redaction (migrations 0004, 0006, 0012).
 */
export async function recordAudit(
  tx: SQL,
  origin: Origin,
  event: AuditEvent,
  at: string,
): Promise<void> {
  const salt = newContentSalt();
  const details = JSON.stringify(event.details ?? {});
  const entry = {
    id: newId(),
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    action: event.action,
    application_id: event.applicationId ?? null,
    subject_type: event.subject?.type ?? null,
    subject_id: event.subject?.id ?? null,
    created_at: at,
    content_hash: contentHash(salt, details, origin.clientIp),
  };
  // Before the insert: outside a transaction this throws, and nothing is written unchained.
  chainOnCommit(tx, entry);
  await tx`INSERT INTO audit_log ${tx({
    ...entry,
    details,
    client_ip: origin.clientIp,
    content_salt: salt,
  })}`;
}
