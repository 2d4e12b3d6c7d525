/*
 * The conditions of conditional offers as records (issue 19): each with its status, due date,
 * evidence and who verified it; the offer becomes unconditional when all are met or waived,
 * and ends (conditions_not_met) when one is not met or is still pending at its due date.
 * The module's public face: its controller and the app's wiring import from here.
 */
export { type ConditionSettings, conditionEffects } from "./internal/effects.ts";
export {
  type ConditionsDeps,
  listConditions,
  type OverdueDeps,
  settleOverdueConditions,
  updateCondition,
} from "./internal/settle.ts";
