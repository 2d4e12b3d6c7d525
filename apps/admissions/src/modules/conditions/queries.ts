import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../db/dialect.ts";
import { isStaff, type User } from "../users/model.ts";
import type { Condition, ConditionStatus } from "./model.ts";

export type ConditionRow = {
  id: string;
  application_id: string;
  position: unknown;
  description: string;
  status: ConditionStatus;
  due_at: unknown;
  evidence_document_id: string | null;
  note: string | null;
  verified_by: string | null;
  verified_at: unknown;
  created_at: unknown;
};

/** Applicants see their conditions in full except which staff member settled them. */
export const toCondition = (row: ConditionRow, viewer: User): Condition => ({
  id: row.id,
  position: toInt(row.position),
  description: row.description,
  status: row.status,
  dueAt: toIso(row.due_at),
  evidenceDocumentId: row.evidence_document_id,
  note: row.note,
  verifiedBy: isStaff(viewer.role) ? row.verified_by : null,
  verifiedAt: toIsoOrNull(row.verified_at),
  createdAt: toIso(row.created_at),
});

export const conditionsOf = (sql: SQL, applicationId: string): Promise<ConditionRow[]> =>
  sql`SELECT * FROM offer_conditions WHERE application_id = ${applicationId}
    ORDER BY position`;

export async function conditionsMetAt(sql: SQL, applicationId: string): Promise<string | null> {
  const [row] = await sql`SELECT conditions_met_at FROM applications WHERE id = ${applicationId}`;
  return toIsoOrNull(row?.conditions_met_at ?? null);
}

/** Met and waived both count: a waived condition is one the office no longer asks for. */
export const SETTLED_OK: ReadonlySet<ConditionStatus> = new Set(["met", "waived"]);
