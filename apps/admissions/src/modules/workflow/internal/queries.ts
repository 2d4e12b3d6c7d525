import type { SQL } from "bun";
import { toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { isStaff, type PersonalDetails, type User } from "../../users/model.ts";
import type { ActorRole, Application, ApplicationStatus, Transition } from "../model.ts";

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
