import { invalidField, type Logger } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import type { User } from "../../users/model.ts";
import type { MoveDeps, Origin } from "../../workflow/model.ts";
import {
  loadVisible,
  lockIntake,
  moveApplication,
  moveOnDeadline,
  recordAudit,
} from "../../workflow/service.ts";
import type { ConditionList, ConditionUpdate } from "../model.ts";
import { conditionsMetAt, conditionsOf, SETTLED_OK, toCondition } from "../queries.ts";

export type ConditionsDeps = { db: Db; now: () => number; move: MoveDeps };

/** Conditions can be settled while the offer stands: before or after the applicant accepts. */
const OPEN = new Set(["conditionally_offered", "accepted"]);

async function listOf(sql: SQL, applicationId: string, viewer: User): Promise<ConditionList> {
  const application = await loadVisible(sql, applicationId, viewer);
  return {
    applicationId,
    applicationStatus: application.status,
    unconditionalAt: await conditionsMetAt(sql, applicationId),
    conditions: (await conditionsOf(sql, applicationId)).map((row) => toCondition(row, viewer)),
  };
}

/** The application's conditions: its applicant and staff; anyone else the 404 of a missing id. */
export const listConditions = (deps: ConditionsDeps, viewer: User, applicationId: string) =>
  deps.db.run((sql) => listOf(sql, applicationId, viewer));

/**
 * Staff settle one condition. Under the intake's lock (as every move takes it), so two admins
 * settling the last two conditions at once cannot both miss that all are met. A condition not
 * met ends the offer (conditions_not_met); the last one met or waived makes it unconditional
 * (answered or not: the applicant may still accept an unconditional offer; an accepted one is
 * confirmed).
 */
export function updateCondition(
  deps: ConditionsDeps,
  origin: Origin & { actor: User },
  applicationId: string,
  conditionId: string,
  body: ConditionUpdate,
): Promise<ConditionList> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const [ref] = await tx`SELECT intake_id FROM applications WHERE id = ${applicationId}`;
    if (!ref) throw notFound("Application");
    await lockIntake(tx, deps.move.dialect, ref.intake_id as string);
    const application = await loadVisible(tx, applicationId, origin.actor);
    const rows = await conditionsOf(tx, applicationId);
    const condition = rows.find((row) => row.id === conditionId);
    if (!condition) throw notFound("Condition");
    if (!OPEN.has(application.status) || (await conditionsMetAt(tx, applicationId))) {
      throw problem("CONDITIONS_CLOSED", {
        detail: `The offer's conditions are settled (the application is ${application.status})`,
      });
    }
    if (body.evidenceDocumentId !== undefined) {
      const [document] = await tx`SELECT id FROM documents
        WHERE id = ${body.evidenceDocumentId} AND application_id = ${applicationId}`;
      if (!document) {
        throw invalidField("/body/evidenceDocumentId", "is not a document of this application");
      }
    }
    const settled = body.status !== "pending";
    await tx`UPDATE offer_conditions SET ${tx({
      status: body.status,
      note: body.note ?? condition.note,
      evidence_document_id: body.evidenceDocumentId ?? condition.evidence_document_id,
      verified_by: settled ? origin.actor.id : null,
      verified_at: settled ? at : null,
    })} WHERE id = ${conditionId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "condition.updated",
        applicationId,
        subject: { type: "condition", id: conditionId },
        details: {
          position: Number(condition.position),
          from: condition.status,
          to: body.status,
          note: body.note ?? null,
          evidenceDocumentId: body.evidenceDocumentId ?? null,
        },
      },
      at,
    );
    const statuses = rows.map((row) => (row.id === conditionId ? body.status : row.status));
    if (body.status === "not_met") {
      await moveApplication(
        tx,
        deps.move,
        origin,
        applicationId,
        {
          to: "conditions_not_met",
          reason: `Condition not met: ${condition.description}`,
          preconditions: [],
          via: "conditions",
        },
        nowMs,
      );
    } else if (statuses.every((status) => SETTLED_OK.has(status))) {
      await becomeUnconditional(tx, origin, application, nowMs);
    }
    return listOf(tx, applicationId, origin.actor);
  });
}

type Loaded = Awaited<ReturnType<typeof loadVisible>>;

async function becomeUnconditional(
  tx: SQL,
  origin: Origin,
  application: Loaded,
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

export type OverdueDeps = { db: Db; now: () => number; move: MoveDeps; logger: Logger };

/**
 * Ends the offers with a condition still pending past its due date (conditions_not_met, as the
 * system), each in its own transaction through the lifecycle. Safe with several replicas and
 * repeated passes: the move re-reads the status under the intake's lock, so an application
 * already moved is skipped (ILLEGAL_TRANSITION) and never moved twice.
 */
export async function settleOverdueConditions(deps: OverdueDeps, limit = 100): Promise<number> {
  const nowMs = deps.now();
  const due = (await deps.db.run(
    (sql) => sql`SELECT DISTINCT c.application_id FROM offer_conditions c
      JOIN applications a ON a.id = c.application_id
      WHERE c.status = 'pending' AND c.due_at <= ${isoAt(nowMs)}
        AND a.status IN ('conditionally_offered', 'accepted') AND a.conditions_met_at IS NULL
      ORDER BY c.application_id LIMIT ${limit}`,
  )) as { application_id: string }[];
  const reason = "A condition was not met by its due date";
  let ended = 0;
  for (const { application_id: id } of due) {
    if (await moveOnDeadline(deps, id, "conditions_not_met", reason, nowMs)) {
      ended++;
    } else {
      deps.logger.debug("conditions not ended: the application moved meanwhile", {
        applicationId: id,
      });
    }
  }
  return ended;
}
