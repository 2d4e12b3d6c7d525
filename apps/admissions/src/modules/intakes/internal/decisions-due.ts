import { invalidField } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound } from "../../../problems.ts";
import type { Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import type { DecisionsDue, DecisionsDueBody } from "../model.ts";

export const getDecisionsDue = (db: Db, intakeId: string): Promise<DecisionsDue> =>
  db.run(async (sql) => {
    const [row] = await sql`SELECT decisions_due_at FROM intakes WHERE id = ${intakeId}`;
    if (!row) throw notFound("Intake");
    return { intakeId, decisionsDueAt: toIsoOrNull(row.decisions_due_at) };
  });

/**
 * When the intake's decisions are due (null: no date). Reviewers with applications still
 * waiting are reminded before it by the background pass, once per due date.
 */
export function setDecisionsDue(
  deps: { db: Db; now: () => number },
  origin: Origin,
  intakeId: string,
  body: DecisionsDueBody,
): Promise<DecisionsDue> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const due = body.decisionsDueAt === null ? null : Date.parse(body.decisionsDueAt);
  if (due !== null && !(due > nowMs)) {
    throw invalidField("/body/decisionsDueAt", "must be in the future");
  }
  const dueAt = due === null ? null : isoAt(due);
  return deps.db.transaction(async (tx) => {
    const [before] = await tx`SELECT decisions_due_at FROM intakes WHERE id = ${intakeId}`;
    if (!before) throw notFound("Intake");
    await tx`UPDATE intakes SET decisions_due_at = ${dueAt} WHERE id = ${intakeId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "intake.decisions_due_set",
        subject: { type: "intake", id: intakeId },
        details: { from: toIsoOrNull(before.decisions_due_at), to: dueAt },
      },
      at,
    );
    return { intakeId, decisionsDueAt: dueAt };
  });
}
