import { invalidField } from "@platform/server";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { Move, TransitionEffects } from "../../workflow/model.ts";
import { normalizeConditions } from "../../workflow/service.ts";
import { conditionsMetAt } from "../queries.ts";

export type ConditionSettings = { defaultDueMs: number };

/** A due date further out than this is a typo, not a plan. */
const MAX_DUE_MS = 2 * 366 * 86_400_000;

/** Each condition's due date: its own (in the future, within two years) or the default. */
function dueDates(move: Move, settings: ConditionSettings) {
  return normalizeConditions(move.decision.conditions).map((condition, index) => {
    if (condition.dueAt === undefined) {
      return { ...condition, dueAt: isoAt(move.nowMs + settings.defaultDueMs) };
    }
    const due = Date.parse(condition.dueAt);
    if (!(due > move.nowMs) || due > move.nowMs + MAX_DUE_MS) {
      throw invalidField(
        `/body/conditions/${index}/dueAt`,
        "must be in the future, within two years",
      );
    }
    return { ...condition, dueAt: isoAt(due) };
  });
}

/**
 * The conditions of a conditional offer as records: written with the offer; once all are met
 * or waived the offer cannot end for them (409 CONDITIONS_MET); when the background pass ends
 * an offer for a condition past its due date, the overdue ones are marked not met.
 */
export function conditionEffects(settings: ConditionSettings): TransitionEffects {
  return {
    async prepare(move): Promise<Record<string, string | number | null>> {
      if (move.to === "conditionally_offered") dueDates(move, settings);
      if (move.to === "conditions_not_met" && (await conditionsMetAt(move.tx, move.before.id))) {
        throw problem("CONDITIONS_MET", {
          detail: "Every condition of this offer was met or waived: the offer is unconditional",
        });
      }
      return {};
    },
    async settle(move) {
      const { tx, before, at } = move;
      if (move.to === "conditionally_offered") {
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
      if (move.to === "conditions_not_met" && move.origin.actor.role === "system") {
        await tx`UPDATE offer_conditions
          SET status = 'not_met', verified_at = ${at}, note = 'Not met by its due date'
          WHERE application_id = ${before.id} AND status = 'pending' AND due_at <= ${at}`;
      }
    },
  };
}
