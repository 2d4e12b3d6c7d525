/*
 * Reviewer calibration: each reviewer's totals against the panel's, the ranking with optional
 * normalisation, and the automatic extra reviews. The module's public face.
 */
export { getCalibration, getRanking, listExtraReviews } from "./internal/calibrate.ts";
export {
  calibrate,
  MIN_REVIEWS_TO_NORMALISE,
  normaliser,
  type Scored,
  spreadOf,
} from "./internal/stats.ts";
