/**
 * The application lifecycle, the one module every feature that moves or shows an application
 * depends on: moving an application (with its intake lock, version check, running totals and
 * history), the features' effects combined into one, seats, the audit log writer, and the
 * background pass scheduler. It imports no other feature, so none of them can pull it into a
 * cycle; features plug in through `TransitionEffects`.
 */

export {
  appendToChain,
  type ChainedRow,
  chainBacklog,
  contentHash,
  GENESIS_HASH,
  rowHash,
} from "./internal/audit-chain.ts";
export {
  BLIND_NAME,
  blinderFor,
  blindPrograms,
  isBlindable,
  isBlindFor,
  loadForViewer,
  redactApplication,
  redactTransition,
} from "./internal/blind.ts";
export {
  adjustCount,
  type CountFilters,
  countFromTotals,
  rebuildCounts,
} from "./internal/counts.ts";
export {
  combineEffects,
  decisionOf,
  normalizeConditions,
  originOf,
} from "./internal/effects.ts";
export { startJobs } from "./internal/jobs.ts";
export {
  assertTransition,
  isFinal,
  type Mover,
  moversFor,
  nextStatuses,
} from "./internal/lifecycle.ts";
export { moveApplication, moveOnDeadline } from "./internal/move.ts";
export { PLACE_TAKEN, SEAT_HOLDING, seatsOf } from "./internal/seats.ts";
export { assertVersion, etagOf, lostRace, preconditionsOf } from "./internal/versions.ts";
export {
  type ApplicationRow,
  loadApplication,
  loadVisible,
  lockIntake,
  recordAudit,
  recordTransition,
  selectApplications,
  type TransitionRow,
  toApplication,
  toTransition,
} from "./queries.ts";

export type WorkflowSettings = {
  /** An offer's response deadline when the decision names none. */
  offerResponseMs: number;
  /** A condition's due date when the offer names none. */
  conditionDueMs: number;
};
