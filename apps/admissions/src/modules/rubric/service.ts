/*
 * A program's rubric: the weighted criteria and the scale reviews score on. The module's public
 * face: its controller and the reviews module (which checks and totals scores) import from here.
 */
export {
  assertScores,
  findRubric,
  getRubric,
  setRubric,
  weightedTotal,
} from "./internal/rubric.ts";
