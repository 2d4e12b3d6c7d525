import { t } from "elysia";
import { enumOf, int, Timestamp } from "../../lib/schema.ts";

/**
 * Every event the feed and the webhooks carry. Events are thin: ids and statuses, never an
 * applicant's personal data, so a receiver fetches what it needs with its own credentials and
 * an erased applicant leaves nothing behind in a receiver's log (docs/admissions.md,
 * "Integrations"). Interviews add theirs here (`interview.*`) through `recordEvent`.
 */
export const EVENT_TYPES = [
  "application.created",
  "application.status_changed",
  "payment.succeeded",
  "payment.failed",
  "payment.expired",
  "payment.refunded",
  "document.uploaded",
  "document.reviewed",
  "document.deleted",
  "interview.invited",
  "interview.confirmed",
  "interview.reschedule_requested",
  "interview.rescheduled",
  "interview.cancelled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const EventTypeSchema = enumOf(EVENT_TYPES);

/** An event as the feed shows it and as a webhook's body carries it. */
export const ChangeEvent = t.Object({
  id: t.String({ format: "uuid", description: "Stable identity: the webhook-id header" }),
  position: int({ minimum: 1, description: "The feed cursor: gap-free, increasing" }),
  type: t.String({ examples: ["application.status_changed"] }),
  applicationId: t.Nullable(t.String({ format: "uuid" })),
  subject: t.Object({ type: t.String(), id: t.String() }),
  data: t.Record(t.String(), t.Unknown()),
  timestamp: Timestamp,
});
export type ChangeEvent = typeof ChangeEvent.static;

export const MAX_FEED_PAGE = 500;

export const FeedQuery = t.Object({
  after: t.Optional(
    t.Integer({
      minimum: 0,
      default: 0,
      description: "The last position already read (0 or omitted: from the start)",
    }),
  ),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_FEED_PAGE, default: 100 })),
  type: t.Optional(EventTypeSchema),
});
export type FeedQuery = typeof FeedQuery.static;

export const FeedPage = t.Object(
  {
    events: t.Array(ChangeEvent),
    next: int({
      minimum: 0,
      description: "Pass as ?after= to continue: the last position read (unchanged if none)",
    }),
    hasMore: t.Boolean({ description: "More events are already there past `next`" }),
  },
  { description: "Events after the cursor, oldest first" },
);
export type FeedPage = typeof FeedPage.static;
