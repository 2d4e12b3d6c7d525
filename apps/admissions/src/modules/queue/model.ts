import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Timestamp } from "../../lib/schema.ts";
import { Application } from "../workflow/model.ts";

export const QueueQuery = t.Object({
  ...PageQuery,
  pending: t.Optional(t.BooleanString({ description: "true: only those you have not reviewed" })),
});
export type QueueQuery = typeof QueueQuery.static;

export const QueueItem = t.Object({
  application: Application,
  assignedAt: Timestamp,
  reviewed: t.Boolean(),
});
export type QueueItem = typeof QueueItem.static;
export const QueuePage = Paginated(
  QueueItem,
  "Your assigned applications, oldest submission first",
);
