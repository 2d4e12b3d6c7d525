import { UNKNOWN_CLIENT } from "@platform/server";
import type { Actor, ConditionInput, DecisionInput, Origin, TransitionEffects } from "../model.ts";

/**
 * Several features' effects as one, prepared and settled in the order given, so the wiring
 * decides once which rule refuses first (submission guards before seat counts).
 */
export function combineEffects(...all: TransitionEffects[]): TransitionEffects {
  return {
    async prepare(move) {
      const columns: Record<string, string | number | null> = {};
      for (const effects of all) Object.assign(columns, await effects.prepare(move));
      return columns;
    },
    async settle(move, after) {
      for (const effects of all) await effects.settle(move, after);
    },
  };
}

/** The origin of a request: its actor, and its client address when known. */
export const originOf = <A extends Actor>(actor: A, clientIp: string): Origin & { actor: A } => ({
  actor,
  clientIp: clientIp === UNKNOWN_CLIENT ? null : clientIp,
});

/** The decision fields of a request body (offer deadline, conditions, waitlist position). */
export const decisionOf = (body: DecisionInput): DecisionInput => ({
  respondBy: body.respondBy,
  conditions: body.conditions,
  waitlistPosition: body.waitlistPosition,
});

/** A decision's conditions as text and optional due date, blanks dropped (either input form). */
export const normalizeConditions = (
  conditions: readonly ConditionInput[] | undefined,
): { description: string; dueAt?: string }[] =>
  (conditions ?? [])
    .map((c) =>
      typeof c === "string"
        ? { description: c.trim() }
        : { ...c, description: c.description.trim() },
    )
    .filter((c) => c.description.length > 0);
