import type { SQL } from "bun";
import { toIso, toIsoOrNull } from "../../db/dialect.ts";
import type { Deferral } from "./model.ts";

export type DeferralRow = {
  id: string;
  application_id: string;
  from_intake_id: string;
  from_term: string;
  to_intake_id: string;
  to_term: string;
  status: Deferral["status"];
  reason: string | null;
  requested_at: unknown;
  decided_at: unknown;
  decision_note: string | null;
};

const selectDeferrals = (sql: SQL) => sql`SELECT d.*, f.term AS from_term, n.term AS to_term
  FROM deferrals d
  JOIN intakes f ON f.id = d.from_intake_id
  JOIN intakes n ON n.id = d.to_intake_id`;

export const toDeferral = (row: DeferralRow): Deferral => ({
  id: row.id,
  applicationId: row.application_id,
  fromIntake: { id: row.from_intake_id, term: row.from_term },
  toIntake: { id: row.to_intake_id, term: row.to_term },
  status: row.status,
  reason: row.reason,
  requestedAt: toIso(row.requested_at),
  decidedAt: toIsoOrNull(row.decided_at),
  decisionNote: row.decision_note,
});

export const deferralsOf = (sql: SQL, applicationId: string): Promise<DeferralRow[]> =>
  sql`${selectDeferrals(sql)} WHERE d.application_id = ${applicationId}
    ORDER BY d.requested_at, d.id`;

export async function findDeferral(
  sql: SQL,
  applicationId: string,
  id: string,
): Promise<DeferralRow | null> {
  const [row] = (await sql`${selectDeferrals(sql)}
    WHERE d.id = ${id} AND d.application_id = ${applicationId}`) as DeferralRow[];
  return row ?? null;
}
