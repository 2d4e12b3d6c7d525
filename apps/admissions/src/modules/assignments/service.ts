/*
 * Which reviewers an application has: assigning (named or round-robin), unassigning, and the
 * conflicts of interest that bar a reviewer. The module's public face: its controller and the
 * reviews module import from here.
 */
export {
  type AssignmentsDeps,
  assignReviewer,
  isConflicted,
  unassignReviewer,
} from "./internal/assign.ts";
export {
  type Disagreement,
  type ExtraReviewOutcome,
  requestExtraReview,
} from "./internal/extra.ts";
