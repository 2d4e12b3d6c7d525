/** The staff routes' types, from the admissions API's own schemas (types only; see ../api/types.ts). */
export type { DecisionBody } from "../../../../../admissions/src/modules/decision/model.ts";
export type { QueueItem } from "../../../../../admissions/src/modules/queue/model.ts";
export type {
  ApplicationReviews,
  Review,
  ReviewBody,
} from "../../../../../admissions/src/modules/reviews/model.ts";
export type { Seats } from "../../../../../admissions/src/modules/workflow/model.ts";
