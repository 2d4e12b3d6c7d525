import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idParams, int, Timestamp } from "../../lib/schema.ts";
import { singleLineText } from "../../lib/text.ts";
import { EVENT_TYPES } from "../events/model.ts";

export const ALL_EVENTS = "*";

const EventTypeFilter = t.Array(enumOf([ALL_EVENTS, ...EVENT_TYPES]), {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: `The event types sent to this endpoint, or ["*"] for all (${EVENT_TYPES.join(", ")})`,
  examples: [["application.status_changed", "payment.succeeded"]],
});

const Url = t.String({
  minLength: 8,
  maxLength: 2_000,
  description:
    "https:// only; http:// and private or loopback addresses only when ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS is on (development, tests)",
  examples: ["https://crm.example.org/hooks/admissions"],
});

const Description = singleLineText({ maxLength: 500 });

export const WebhookEndpoint = t.Object({
  id: Id,
  url: t.String(),
  description: t.Nullable(t.String()),
  eventTypes: t.Array(t.String()),
  enabled: t.Boolean({ description: "Disabled endpoints receive nothing new; pending ones wait" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookEndpoint = typeof WebhookEndpoint.static;

export const WebhookEndpointWithSecret = t.Object({
  ...WebhookEndpoint.properties,
  secret: t.String({
    description:
      "The signing secret (Standard Webhooks `whsec_…`), shown only here: store it now. Rotating issues a new one.",
  }),
});
export type WebhookEndpointWithSecret = typeof WebhookEndpointWithSecret.static;

export const WebhookEndpointList = t.Object({ results: t.Array(WebhookEndpoint) });

export const WebhookEndpointCreate = t.Object({
  url: Url,
  description: t.Optional(Description),
  eventTypes: EventTypeFilter,
});
export type WebhookEndpointCreate = typeof WebhookEndpointCreate.static;

export const WebhookEndpointUpdate = t.Object(
  {
    url: t.Optional(Url),
    description: t.Optional(t.Nullable(Description)),
    eventTypes: t.Optional(EventTypeFilter),
    enabled: t.Optional(t.Boolean()),
  },
  { minProperties: 1 },
);
export type WebhookEndpointUpdate = typeof WebhookEndpointUpdate.static;

export const WebhookDeliveryParams = idParams("id", "deliveryId");

export const DELIVERY_STATUSES = ["pending", "delivered", "dead"] as const;

export const WebhookDeliveryAttempt = t.Object({
  at: Timestamp,
  statusCode: t.Nullable(int({ description: "The receiver's HTTP status; null: no answer" })),
  error: t.Nullable(t.String()),
  durationMs: int({ minimum: 0 }),
});

export const WebhookDelivery = t.Object({
  id: Id,
  endpointId: Id,
  eventId: Id,
  eventType: t.String(),
  eventPosition: int({ minimum: 1 }),
  status: enumOf(DELIVERY_STATUSES, {
    description: "pending: not delivered yet (retried with backoff); delivered (2xx); dead",
  }),
  attempts: int({ minimum: 0 }),
  nextAttemptAt: t.Nullable(Timestamp),
  lastStatusCode: t.Nullable(int()),
  lastError: t.Nullable(t.String()),
  createdAt: Timestamp,
  deliveredAt: t.Nullable(Timestamp),
});
export type WebhookDelivery = typeof WebhookDelivery.static;

export const WebhookDeliveryDetail = t.Object({
  ...WebhookDelivery.properties,
  attemptLog: t.Array(WebhookDeliveryAttempt, { description: "Every attempt, oldest first" }),
});
export type WebhookDeliveryDetail = typeof WebhookDeliveryDetail.static;

export const WebhookDeliveryQuery = t.Object({
  ...PageQuery,
  status: t.Optional(enumOf(DELIVERY_STATUSES)),
});
export type WebhookDeliveryQuery = typeof WebhookDeliveryQuery.static;

export const WebhookDeliveryPage = Paginated(
  WebhookDelivery,
  "An endpoint's deliveries, newest first",
);
