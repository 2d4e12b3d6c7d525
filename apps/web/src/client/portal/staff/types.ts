/** The staff routes' types, from the admissions API's own schemas (types only; see ../api/types.ts). */

import type { BulkResult as BulkResultSchema } from "@platform/admissions/models";

export type {
  ApplicationReviews,
  AuditEntry,
  BulkTransitionBody,
  DecisionBody,
  OutboxEmail,
  QueueItem,
  Refusal,
  Review,
  ReviewBody,
  Seats,
  StaffCreate,
  Stats,
} from "@platform/admissions/models";

/** The model exports the schema only; its type, as the API sends it. */
export type BulkResult = typeof BulkResultSchema.static;
