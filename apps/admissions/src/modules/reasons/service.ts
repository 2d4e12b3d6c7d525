/*
 * The configurable reasons for rejection, withdrawal and decline (issue 19): the list admins
 * manage and everyone picks from, and the check every move with a `reasonCode` passes.
 * The module's public face: its controller and the app's wiring import from here.
 */
export {
  createReason,
  listReasons,
  type ReasonsDeps,
  reasonEffects,
  updateReason,
} from "./internal/reasons.ts";
