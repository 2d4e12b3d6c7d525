/** The staff routes' types, from the admissions API's own schemas (types only; see ../api/types.ts). */

export type { AuditEntry } from "../../../../../admissions/src/modules/audit/model.ts";
export type { DecisionBody } from "../../../../../admissions/src/modules/decision/model.ts";
export type { OutboxEmail } from "../../../../../admissions/src/modules/outbox/model.ts";
export type { QueueItem } from "../../../../../admissions/src/modules/queue/model.ts";
export type {
  ApplicationReviews,
  Review,
  ReviewBody,
} from "../../../../../admissions/src/modules/reviews/model.ts";
export type {
  BulkTransitionBody,
  Refusal,
  StaffCreate,
  Stats,
} from "../../../../../admissions/src/modules/staff/model.ts";
export type { Seats } from "../../../../../admissions/src/modules/workflow/model.ts";

import type { BulkResult as BulkResultSchema } from "../../../../../admissions/src/modules/staff/model.ts";

/** The model exports the schema only; its type, as the API sends it. */
export type BulkResult = typeof BulkResultSchema.static;
