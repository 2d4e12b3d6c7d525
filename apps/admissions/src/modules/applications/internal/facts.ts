import type { SQL } from "bun";
import { type Dialect, forUpdateOf } from "../../../db/dialect.ts";
import { notFound } from "../../../problems.ts";
import type { DocumentType, Program } from "../../catalog/model.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import { isFinal } from "../../workflow/service.ts";

/** What the documents and payments features need to know about an application. */
export type ApplicationFacts = {
  id: string;
  applicantId: string;
  status: ApplicationStatus;
  programCode: string;
  intakeTerm: string;
  requiredDocuments: DocumentType[];
  fee: Program["applicationFee"];
};

type FactsRow = {
  id: string;
  applicant_id: string;
  status: ApplicationStatus;
  program_code: string;
  intake_term: string;
  required_documents: string;
  application_fee: number;
  currency: string;
};

/**
 * The application with its program's requirements. `lock` (inside a transaction) holds the
 * application row on PostgreSQL until the transaction ends.
 */
export async function findApplicationFacts(
  sql: SQL,
  id: string,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts | null> {
  const [row] = (await sql`SELECT a.id, a.applicant_id, a.status,
      p.code AS program_code, i.term AS intake_term,
      p.required_documents, p.application_fee, p.currency
    FROM applications a
    JOIN programs p ON p.id = a.program_id
    JOIN intakes i ON i.id = a.intake_id
    WHERE a.id = ${id}${lock ? forUpdateOf(sql, lock.dialect, "a") : sql``}`) as FactsRow[];
  if (!row) return null;
  return {
    id: row.id,
    applicantId: row.applicant_id,
    status: row.status,
    programCode: row.program_code,
    intakeTerm: row.intake_term,
    requiredDocuments: JSON.parse(row.required_documents) as DocumentType[],
    fee: { amount: Number(row.application_fee), currency: row.currency },
  };
}

/**
 * The application if `viewer` may see it (its applicant, or staff), else the same 404 as for
 * an id that does not exist, so ids cannot be probed.
 */
export async function visibleApplication(
  sql: SQL,
  id: string,
  viewer: User,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts> {
  const facts = await findApplicationFacts(sql, id, lock);
  if (!facts || (facts.applicantId !== viewer.id && !isStaff(viewer.role))) {
    throw notFound("Application");
  }
  return facts;
}

/** The applicant's own application; anyone else (staff included) gets the 404. */
export async function ownApplication(
  sql: SQL,
  id: string,
  applicant: User,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts> {
  const facts = await findApplicationFacts(sql, id, lock);
  if (!facts || facts.applicantId !== applicant.id) throw notFound("Application");
  return facts;
}

export const isClosed = (facts: ApplicationFacts) => isFinal(facts.status);
