import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { Application, Move, Origin } from "../../workflow/model.ts";
import { loadVisible, normalizeConditions, recordAudit } from "../../workflow/service.ts";
import type { Condition, ConditionList, ConditionStatus, ConditionUpdate } from "../model.ts";

/*
 * The conditions of conditional offers as records (issue 19): each with its status, due date,
 * evidence and who verified it, as rows; the offer becoming unconditional.
 */

export type ConditionSettings = { defaultDueMs: number };

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

/** Conditions can be settled while the offer stands: before or after the applicant accepts. */
export const OPEN = new Set(["conditionally_offered", "accepted"]);

export async function listOf(
  sql: SQL,
  applicationId: string,
  viewer: User,
): Promise<ConditionList> {
  const application = await loadVisible(sql, applicationId, viewer);
  return {
    applicationId,
    applicationStatus: application.status,
    unconditionalAt: await conditionsMetAt(sql, applicationId),
    conditions: (await conditionsOf(sql, applicationId)).map((row) => toCondition(row, viewer)),
  };
}

/** A due date further out than this is a typo, not a plan. */
const MAX_DUE_MS = 2 * 366 * 86_400_000;

/** Each condition's due date: its own (in the future, within two years) or the default. */
export function dueDates(move: Move, settings: ConditionSettings) {
  return normalizeConditions(move.decision.conditions).map((condition, index) => {
    if (condition.dueAt === undefined) {
      return { ...condition, dueAt: isoAt(move.nowMs + settings.defaultDueMs) };
    }
    const due = Date.parse(condition.dueAt);
    if (!(due > move.nowMs) || due > move.nowMs + MAX_DUE_MS) {
      throw invalidField(
        `/body/conditions/${index}/dueAt`,
        "must be in the future, within two years",
        "future",
      );
    }
    return { ...condition, dueAt: isoAt(due) };
  });
}

/** A conditional offer's conditions, written with it (due dates checked in `prepare` first). */
export async function writeConditions(move: Move, settings: ConditionSettings): Promise<void> {
  const { tx, before, at } = move;
  let position = 0;
  for (const condition of dueDates(move, settings)) {
    await tx`INSERT INTO offer_conditions ${tx({
      id: newId(),
      application_id: before.id,
      position: ++position,
      description: condition.description,
      status: "pending",
      due_at: condition.dueAt,
      created_at: at,
    })}`;
  }
}

/** One condition settled by staff (or back to pending), with its note and evidence. */
export async function settleCondition(
  tx: SQL,
  applicationId: string,
  condition: ConditionRow,
  body: ConditionUpdate,
  verifiedBy: string,
  at: string,
): Promise<void> {
  if (body.evidenceDocumentId !== undefined) {
    const [document] = await tx`SELECT id FROM documents
      WHERE id = ${body.evidenceDocumentId} AND application_id = ${applicationId}`;
    if (!document) {
      throw invalidField(
        "/body/evidenceDocumentId",
        "is not a document of this application",
        "notFound",
      );
    }
  }
  const settled = body.status !== "pending";
  await tx`UPDATE offer_conditions SET ${tx({
    status: body.status,
    note: body.note ?? condition.note,
    evidence_document_id: body.evidenceDocumentId ?? condition.evidence_document_id,
    verified_by: settled ? verifiedBy : null,
    verified_at: settled ? at : null,
  })} WHERE id = ${condition.id}`;
}

export async function becomeUnconditional(
  tx: SQL,
  origin: Origin,
  application: Application,
  nowMs: number,
): Promise<void> {
  // The status stays: the lifecycle table has no "unconditional" status. The offer lists no
  // conditions any more (as an unconditional offer does), and the application changes, so its
  // version does too.
  const at = isoAt(nowMs);
  await tx`UPDATE applications SET conditions_met_at = ${at}, offer_conditions = NULL,
    version = version + 1, updated_at = ${at} WHERE id = ${application.id}`;
  await recordAudit(
    tx,
    origin,
    {
      action: "application.conditions_met",
      applicationId: application.id,
      details: { status: application.status },
    },
    at,
  );
  const what = `${application.program.name} (${application.intake.term})`;
  const answered = application.status === "accepted";
  const respondBy = application.offer?.respondBy ?? at;
  await enqueueEmail(
    tx,
    {
      applicationId: application.id,
      event: "conditions_met",
      to: application.applicant.email,
      subject: answered
        ? `Your place is confirmed: ${application.program.name}`
        : `Your offer is now unconditional: ${application.program.name}`,
      body: `Dear ${application.applicant.fullName},\n\nThe conditions of your offer for ${what} are met. ${answered ? "Your place is confirmed; we will be in touch about enrolment." : `Your offer is now unconditional: please accept or decline it before ${respondBy} (UTC).`}\n\nApplication reference: ${application.id}\n\nAdmissions Office`,
    },
    at,
  );
}

/** Applications whose offer has a condition still pending past its due date. */
export async function overdue(db: Db, nowMs: number, limit: number): Promise<string[]> {
  const due = (await db.run(
    (sql) => sql`SELECT DISTINCT c.application_id FROM offer_conditions c
      JOIN applications a ON a.id = c.application_id
      WHERE c.status = 'pending' AND c.due_at <= ${isoAt(nowMs)}
        AND a.status IN ('conditionally_offered', 'accepted') AND a.conditions_met_at IS NULL
      ORDER BY c.application_id LIMIT ${limit}`,
  )) as { application_id: string }[];
  return due.map((row) => row.application_id);
}
